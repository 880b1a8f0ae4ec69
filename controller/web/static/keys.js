// Audit and replay pages: step back and forth with the keyboard (links rel=prev/next/first/last).
(function () {
  "use strict";
  var keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    if (event.target && /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName)) { return; }
    var rel = keys[event.key];
    var link = rel && document.querySelector('a[rel="' + rel + '"]');
    if (link) { event.preventDefault(); location.href = link.href; }
  });
})();
