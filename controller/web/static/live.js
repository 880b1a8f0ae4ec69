// The live pages (table display, referee): the server sends the regions that changed, already
// rendered by its templates; this swaps them in. Nothing else is drawn here.
(function () {
  "use strict";
  var connection = document.getElementById("connection");
  var lastSeq = -1;

  function state(text, name) {
    if (connection) { connection.textContent = text; connection.dataset.state = name; }
  }

  function apply(message) {
    if (message.seq < lastSeq) { return; }
    lastSeq = message.seq;
    document.body.dataset.seq = String(message.seq);
    Object.keys(message.regions || {}).forEach(function (name) {
      document.querySelectorAll('[data-region="' + name + '"]').forEach(function (element) {
        element.innerHTML = message.regions[name];
      });
    });
  }

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + location.host + "/ws/table");
    socket.onopen = function () { state("live", "live"); };
    socket.onmessage = function (event) { apply(JSON.parse(event.data)); };
    socket.onclose = function () {
      state("connection lost: trying again", "lost");
      setTimeout(connect, 1000);
    };
  }
  connect();
})();
