/**
 * The dashboard's one script (progressive enhancement; every page works without it): a chart
 * reads out the point under the pointer or picked with the arrow keys, and a delete asks first.
 */
export const enhanceJs = `"use strict";
document.querySelectorAll("figure.chart").forEach(function (figure) {
  var svg = figure.querySelector("svg"), out = figure.querySelector("output");
  var dots = Array.prototype.slice.call(figure.querySelectorAll("circle.dot"));
  if (!svg || !out || dots.length === 0) return;
  var index = dots.length - 1;
  function show(i) {
    index = Math.max(0, Math.min(dots.length - 1, i));
    var dot = dots[index];
    out.textContent = dot.getAttribute("data-date") + ": " + Number(dot.getAttribute("data-value")).toLocaleString();
  }
  svg.addEventListener("pointermove", function (event) {
    var box = svg.getBoundingClientRect(), best = 0, bestGap = Infinity;
    var x = (event.clientX - box.left) * (svg.viewBox.baseVal.width / box.width);
    dots.forEach(function (dot, i) { var gap = Math.abs(Number(dot.getAttribute("cx")) - x); if (gap < bestGap) { bestGap = gap; best = i; } });
    show(best);
  });
  svg.addEventListener("keydown", function (event) {
    if (event.key === "ArrowLeft") { show(index - 1); event.preventDefault(); }
    if (event.key === "ArrowRight") { show(index + 1); event.preventDefault(); }
  });
  svg.addEventListener("focus", function () { show(index); });
});
document.querySelectorAll("form[data-confirm]").forEach(function (form) {
  form.addEventListener("submit", function (event) { if (!window.confirm(form.getAttribute("data-confirm"))) event.preventDefault(); });
});
`;
