"""ASL chapter A25, nationality distinctions, as data and queries: profiles by nationality
and date (`nationality`), the trait cascade (`cascade`, `traits`), Human Wave, Commissar
and DYO rules (`humanwave`, `commissar`, `dyo`, `personnel`, `hexgrid`), and the bridge
from a minor's strategic fate to its troops' traits (`bridge`)."""
