// The summary page's script: the Print button prints.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  var b = document.getElementById("report-print");
  if (b) b.addEventListener("click", function () { window.print(); });
});
