// The club board: polls the JSON of every table and updates the rows in place (text only, never HTML).
(function () {
  "use strict";
  var script = document.currentScript;
  var api = script.getAttribute("data-api");
  var every = parseInt(script.getAttribute("data-every"), 10) || 2000;
  var body = document.querySelector("#tables tbody");
  var template = document.getElementById("row");

  function clock(seconds) {
    if (seconds === null || seconds === undefined) return "--:--";
    var s = Math.max(0, seconds | 0);
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }

  function fill(row, t) {
    row.setAttribute("data-game", String(t.game_id));
    row.className = (t.state === "finished" || t.state === "disqualified") ? "over" : "";
    var link = row.querySelector(".link");
    link.textContent = t.table;
    link.setAttribute("href", t.link);
    row.querySelector(".players").textContent = t.players.join(", ");
    row.querySelector(".state").textContent = t.state + (t.turn ? " (turn " + t.turn + ")" : "");
    row.querySelector(".player").textContent = t.player || "";
    var time = row.querySelector(".time");
    time.textContent = clock(t.seconds_left);
    time.className = "time" + (t.seconds_left !== null && t.seconds_left <= 10 ? " low" : "");
    row.querySelector(".verdict").textContent = t.last_verdict || "";
    var alerts = row.querySelector(".alerts");
    while (alerts.firstChild) alerts.removeChild(alerts.firstChild);
    t.alerts.forEach(function (text) {
      var li = document.createElement("li");
      li.textContent = text;
      alerts.appendChild(li);
    });
  }

  function render(data) {
    while (body.firstChild) body.removeChild(body.firstChild);
    data.tables.forEach(function (t) {
      var row = template.content.firstElementChild.cloneNode(true);
      fill(row, t);
      body.appendChild(row);
    });
    if (!data.tables.length) {
      var tr = document.createElement("tr");
      var td = document.createElement("td");
      td.colSpan = 7;
      td.textContent = "No table is playing.";
      tr.appendChild(td);
      body.appendChild(tr);
    }
    document.getElementById("updated").textContent = data.updated;
    document.getElementById("problem").textContent = data.problem || "";
  }

  function poll() {
    fetch(api, {cache: "no-store"})
      .then(function (r) { return r.json(); })
      .then(render)
      .catch(function () { document.getElementById("problem").textContent = "the club server does not answer"; })
      .finally(function () { setTimeout(poll, every); });
  }
  setTimeout(poll, every);
})();
