// The referee page's actions: each form posts JSON to /api/referee/<action> with the token.
// The token comes from the address (#token=...) or the field; it stays in this tab only.
(function () {
  "use strict";
  var tokenField = document.getElementById("token");
  var nameField = document.getElementById("referee-name");
  var result = document.getElementById("result");
  var fromHash = /[#&]token=([^&]+)/.exec(location.hash);
  if (fromHash) {
    sessionStorage.setItem("tileref-token", decodeURIComponent(fromHash[1]));
    history.replaceState(null, "", location.pathname);
  }
  tokenField.value = sessionStorage.getItem("tileref-token") || "";
  nameField.value = sessionStorage.getItem("tileref-referee") || "";
  tokenField.addEventListener("change", function () { sessionStorage.setItem("tileref-token", tokenField.value); });
  nameField.addEventListener("change", function () { sessionStorage.setItem("tileref-referee", nameField.value); });

  function say(text, ok) {
    result.textContent = text;
    result.className = "result " + (ok ? "ok" : "refused");
  }

  // the token form only keeps the token in this tab: it is never sent as a form
  document.getElementById("auth").addEventListener("submit", function (event) { event.preventDefault(); });

  document.querySelectorAll("form[data-action]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var body = { referee: nameField.value };
      new FormData(form).forEach(function (value, key) { body[key] = value; });
      if (form.dataset.action === "pause") { body.resume = form.elements.resume.checked; }
      if (form.dataset.action === "extend") { body.seconds = parseInt(body.seconds, 10); }
      var headers = { "Content-Type": "application/json" };
      if (tokenField.value) { headers.Authorization = "Bearer " + tokenField.value; }
      say("sending " + form.dataset.action + "...", true);
      fetch("/api/referee/" + form.dataset.action, { method: "POST", headers: headers, body: JSON.stringify(body) })
        .then(function (response) {
          return response.json().then(function (data) { return { status: response.status, data: data }; });
        })
        .then(function (answer) {
          if (answer.status === 200) { say("recorded: " + answer.data.said, true); form.reset(); }
          else { say("refused (" + answer.status + "): " + answer.data.error, false); }
        })
        .catch(function (error) { say("could not send: " + error, false); });
    });
  });
})();
