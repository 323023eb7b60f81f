"""ASL chapter A25, nationality distinctions, as data and queries: profiles (`nationality`,
`cascade`, `traits`), Human Wave, Commissar and DYO rules, and the `bridge` from a minor's
strategic fate to its troops' traits."""
