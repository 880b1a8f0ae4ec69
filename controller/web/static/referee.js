// The referee page's choices: the server draws only those where the game stands allows (the
// "actions" region); this lets the referee pick tiles by tapping them and posts each choice as
// JSON to /api/referee/<action> with the token and a one-time nonce (desk.js). Every word shown comes
// from the server: the answer's "words", or the page's data-* words. The token is typed in the field
// (never taken from the address); it stays in this tab only.
(function () {
  "use strict";
  var tokenField = document.getElementById("token");
  var nameField = document.getElementById("referee-name");
  var result = document.getElementById("result");
  var actions = document.getElementById("actions");
  tokenField.value = sessionStorage.getItem("tileref-token") || "";
  nameField.value = sessionStorage.getItem("tileref-referee") || "";
  tokenField.addEventListener("change", function () { sessionStorage.setItem("tileref-token", tokenField.value); });
  nameField.addEventListener("change", function () { sessionStorage.setItem("tileref-referee", nameField.value); });
  document.getElementById("auth").addEventListener("submit", function (event) { event.preventDefault(); });

  function say(text, ok) {
    result.textContent = text;
    result.className = "result " + (ok ? "ok" : "refused");
  }

  function codesOf(container) {
    return Array.prototype.map.call(container.querySelectorAll(".chip"), function (chip) { return chip.dataset.code; });
  }

  // -- picking tiles ---------------------------------------------------------------------
  function pickTable(form, chip) {
    form.querySelectorAll('[data-role="table"] .chip').forEach(function (other) { other.classList.remove("picked"); });
    form.querySelectorAll('[data-role="palette"] .chip').forEach(function (other) { other.classList.remove("picked"); });
    chip.classList.add("picked");
    form.elements.changes.value = "";
  }

  function pickNewCode(form, chip) {
    var picked = form.querySelector('[data-role="table"] .chip.picked');
    if (!picked) { say(result.dataset.pickFirst, false); return; }
    form.querySelectorAll('[data-role="palette"] .chip').forEach(function (other) { other.classList.remove("picked"); });
    chip.classList.add("picked");
    form.elements.changes.value = picked.dataset.index + " " + chip.dataset.code;
  }

  function visibleRack(form) {
    return form.querySelector(".rack-tiles:not([hidden])");
  }

  function showRack(form) {
    var target = form.elements.target.value;
    form.querySelectorAll(".rack-tiles").forEach(function (rack) { rack.hidden = rack.dataset.rack !== target; });
  }

  actions.addEventListener("click", function (event) {
    var chip = event.target.closest("button.chip");
    var form = chip && chip.closest("form");
    if (!form) { return; }
    if (form.dataset.target === "table") {
      if (chip.closest('[data-role="table"]')) { pickTable(form, chip); } else { pickNewCode(form, chip); }
    } else if (form.dataset.target === "rack") {
      if (chip.closest(".rack-tiles")) { chip.remove(); } else { visibleRack(form).appendChild(chip.cloneNode(true)); }
    }
  });

  actions.addEventListener("change", function (event) {
    var form = event.target.closest("form");
    if (form && form.dataset.target === "rack" && event.target.name === "target") { showRack(form); }
  });

  // -- sending ---------------------------------------------------------------------------
  function bodyOf(form) {
    var body = { referee: nameField.value };
    new FormData(form).forEach(function (value, key) { body[key] = value; });
    var action = form.dataset.action;
    if (action === "pause") { body.resume = Boolean(body.resume); }
    if (action === "extend") { body.seconds = parseInt(body.seconds, 10); }
    if (form.dataset.target === "table") { body.target = "table"; }
    if (form.dataset.target === "rack") { body.tiles = codesOf(visibleRack(form)); }
    return body;
  }

  actions.addEventListener("submit", function (event) {
    var form = event.target.closest("form[data-action]");
    if (!form) { return; }
    event.preventDefault();
    if (form.dataset.target === "table" && !form.elements.changes.value) { say(result.dataset.pickFirst, false); return; }
    say(result.dataset.sending, true);
    window.tilerefDesk.post(form.dataset.action, tokenField.value, bodyOf(form))
      .then(function (answer) {
        say(answer.data.words || answer.data.error, answer.status === 200);
        if (answer.status === 200) { form.reset(); }
      })
      .catch(function () { say(result.dataset.unreachable, false); });
  });
})();
