// The club board: polls the JSON of every table and of every running event and updates the page
// in place (text only, never HTML).
(function () {
  "use strict";
  var script = document.currentScript;
  var api = script.getAttribute("data-api");
  var eventsApi = script.getAttribute("data-events-api");
  var lastEvents = null;
  // the board's words, in its language (the page's data-* attributes, from the catalogue)
  function said(name) { return script.getAttribute("data-" + name) || ""; }
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
    row.querySelector(".state").textContent = (t.state_words || t.state) + (t.turn ? " (" + said("turn").replace("{turn}", t.turn) + ")" : "");
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
      td.textContent = said("no-table");
      tr.appendChild(td);
      body.appendChild(tr);
    }
    document.getElementById("updated").textContent = data.updated;
    document.getElementById("problem").textContent = data.problem || "";
  }

  function element(tag, text, className) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (className) node.className = className;
    return node;
  }

  function tableOf(headings, rows) {
    var table = element("table");
    var head = element("tr");
    headings.forEach(function (h) { head.appendChild(element("th", h)); });
    table.appendChild(element("thead")).appendChild(head);
    var tbody = table.appendChild(element("tbody"));
    rows.forEach(function (row) { tbody.appendChild(row); });
    return table;
  }

  function eventNode(e) {
    var article = element("article", null, "event");
    article.setAttribute("data-event", e.name);
    article.appendChild(element("h2", e.name));
    article.appendChild(element("p", e.game + " \u00b7 " + e.format + " \u00b7 " + e.state, "state"));
    var columns = article.appendChild(element("div", null, "columns"));
    var standings = columns.appendChild(element("div", null, "standings"));
    standings.appendChild(element("h3", e.standings.title));
    standings.appendChild(tableOf(e.standings.columns, e.standings.rows.map(function (cells) {
      var tr = element("tr");
      cells.forEach(function (cell) { tr.appendChild(element("td", cell)); });
      return tr;
    })));
    if (e.round) {
      var draw = columns.appendChild(element("div", null, "draw"));
      draw.appendChild(element("h3", e.round.stage));
      draw.appendChild(tableOf([said("table"), said("seats"), said("results")], e.round.tables.map(function (t) {
        var tr = element("tr", null, t.disqualified ? "out" : "");
        tr.appendChild(element("td", t.number + (t.bracket ? " (" + t.bracket + ")" : "")));
        tr.appendChild(element("td", t.seats.map(function (p, i) { return (i + 1) + ". " + p; }).join(", "), "seats"));
        tr.appendChild(element("td", t.results + "/" + t.games, "n"));
        return tr;
      })));
    }
    return article;
  }

  function renderEvents(data) {
    document.getElementById("events-problem").textContent = data.problem || "";
    var text = JSON.stringify(data.events);
    if (text === lastEvents) return;  // unchanged: the page is left as it is
    lastEvents = text;
    var list = document.getElementById("event-list");
    while (list.firstChild) list.removeChild(list.firstChild);
    data.events.forEach(function (e) { list.appendChild(eventNode(e)); });
    if (!data.events.length) list.appendChild(element("p", said("no-event"), "none"));
  }

  function get(url) {
    return fetch(url, {cache: "no-store"}).then(function (r) { return r.json(); });
  }

  function poll() {
    Promise.all([get(api).then(render), get(eventsApi).then(renderEvents)])
      .catch(function () { document.getElementById("problem").textContent = said("no-answer"); })
      .finally(function () { setTimeout(poll, every); });
  }
  setTimeout(poll, every);
})();
