// The stream overlay and the spectator feed: the server sends the regions that changed, already
// rendered by its templates (and, for the feed, already held back by the delay); this swaps them in.
(function () {
  "use strict";
  var path = document.currentScript.getAttribute("data-socket");
  var connection = document.getElementById("connection");
  var notYet = document.getElementById("bc-not-yet");
  var updates = 0;

  function state(name) {
    if (connection) { connection.dataset.state = name; }
  }

  function apply(message) {
    Object.keys(message.regions || {}).forEach(function (name) {
      document.querySelectorAll('[data-region="' + name + '"]').forEach(function (element) {
        element.innerHTML = message.regions[name];  // the server's template output, escaped there
      });
    });
    var board = document.getElementById("bc-board");
    if (notYet && board) { notYet.hidden = (board.dataset.shownSeq || "0") !== "0"; }
    updates += 1;
    document.body.dataset.updates = String(updates);
  }

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + location.host + path);
    socket.addEventListener("open", function () { state("live"); });
    socket.addEventListener("message", function (event) { apply(JSON.parse(event.data)); });
    socket.addEventListener("close", function () {
      state("lost");
      setTimeout(connect, 1000);
    });
  }
  connect();
})();
