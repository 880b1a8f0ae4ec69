// How the referee page's scripts post an action: the token goes in a header (never in an address),
// and each action carries a one-time nonce asked for just before it (GET /api/referee/nonce), so an
// action sent again is refused. Answers {status, data}; a refused nonce request answers as the action.
(function () {
  "use strict";
  function answerOf(response) {
    return response.json().then(function (data) { return { status: response.status, data: data }; });
  }

  window.tilerefDesk = {
    post: function (action, token, body) {
      var headers = {};
      if (token) { headers.Authorization = "Bearer " + token; }
      return fetch("/api/referee/nonce", { headers: headers, cache: "no-store" })
        .then(answerOf)
        .then(function (given) {
          if (given.status !== 200) { return given; }
          var sent = { "Content-Type": "application/json", "X-Tileref-Nonce": given.data.nonce };
          if (token) { sent.Authorization = headers.Authorization; }
          return fetch("/api/referee/" + action, { method: "POST", headers: sent, body: JSON.stringify(body) })
            .then(answerOf);
        });
    }
  };
})();
