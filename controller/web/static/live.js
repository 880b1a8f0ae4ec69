// The live pages (table display, referee): the server sends the regions that changed, already
// rendered by its templates in the page's language; this swaps them in. Nothing else is drawn here.
(function () {
  "use strict";
  var connection = document.getElementById("connection");
  var lastSeq = -1;

  function state(name) {
    if (connection) {
      connection.textContent = connection.dataset[name] || name;
      connection.dataset.state = name;
    }
  }

  function apply(message) {
    if (message.seq < lastSeq) { return; }
    lastSeq = message.seq;
    document.body.dataset.seq = String(message.seq);
    Object.keys(message.regions || {}).forEach(function (name) {
      document.querySelectorAll('[data-region="' + name + '"]').forEach(function (element) {
        element.innerHTML = message.regions[name];  // the server's template output, escaped there
        element.dispatchEvent(new CustomEvent("region-swapped", { bubbles: true }));
      });
    });
  }

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + location.host + "/ws/table");
    socket.addEventListener("open", function () { state("live"); });
    socket.addEventListener("message", function (event) { apply(JSON.parse(event.data)); });
    socket.addEventListener("close", function () {
      state("lost");
      setTimeout(connect, 1000);
    });
  }
  connect();
})();
