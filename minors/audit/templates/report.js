"use strict";
// Filters: a minor hides the other minors' bands and events; a season hides the events of
// other seasons and marks its column. The bands left close up, so none is lost off screen.
(function () {
  const minorSelect = document.getElementById("filter-minor");
  const seasonSelect = document.getElementById("filter-season");
  const count = document.getElementById("filter-count");
  const timeline = document.getElementById("timeline");
  const bands = Array.from(timeline.querySelectorAll("g.band"));
  const rows = Array.from(document.querySelectorAll("#events tr.event"));
  const marks = Array.from(document.querySelectorAll(".column-mark"));
  const none = document.getElementById("no-events");
  const head = Number(timeline.dataset.head || 44);
  const pitch = Number(timeline.dataset.pitch || 22);

  function apply() {
    const minor = minorSelect.value;
    const season = seasonSelect.value;
    let shown = 0;
    bands.forEach(function (band) {
      const keep = !minor || band.dataset.minor === minor;
      band.style.display = keep ? "" : "none";
      if (keep) {
        band.setAttribute("transform", "translate(0 " + (head + shown * pitch) + ")");
        shown += 1;
      }
    });
    const height = head + shown * pitch + 4;
    timeline.setAttribute("height", String(height));
    timeline.setAttribute("viewBox", "0 0 " + timeline.getAttribute("width") + " " + height);
    marks.forEach(function (mark) {
      mark.classList.toggle("on", Boolean(season) && mark.dataset.turn === season);
      if (mark.tagName === "rect") {
        mark.setAttribute("height", String(shown * pitch + 2));
      }
    });
    let visible = 0;
    rows.forEach(function (row) {
      const minors = row.dataset.minors ? row.dataset.minors.split("|") : [];
      const keep = (!minor || minors.indexOf(minor) >= 0) && (!season || row.dataset.turn === season);
      row.hidden = !keep;
      if (keep) {
        visible += 1;
      }
    });
    none.hidden = visible > 0;
    count.textContent = visible + " of " + rows.length + " events, " + shown + " of " +
      bands.length + " minors";
  }

  minorSelect.addEventListener("change", apply);
  seasonSelect.addEventListener("change", apply);
  document.getElementById("filter-clear").addEventListener("click", function () {
    minorSelect.value = "";
    seasonSelect.value = "";
    apply();
  });
  bands.forEach(function (band) {
    band.querySelector(".minor-name").addEventListener("click", function () {
      minorSelect.value = minorSelect.value === band.dataset.minor ? "" : band.dataset.minor;
      apply();
    });
  });
  timeline.querySelectorAll(".season-head").forEach(function (heading) {
    heading.addEventListener("click", function () {
      const turn = heading.dataset.turn;
      seasonSelect.value = seasonSelect.value === turn ? "" : turn;
      apply();
    });
  });
  apply();
})();
