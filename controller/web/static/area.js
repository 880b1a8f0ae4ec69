// The referee page's play area editor. The server sends the area in force as data (the "area"
// region: the latest frame's photo and the corners marked, or found on it); this draws it on that
// photo with four corners the referee drags (mouse, pen or finger: pointer events), and posts the
// corners, in the photo's pixels, to /api/referee/area with the token and a nonce (desk.js) ("find it by itself": found
// true). The table checks them, keeps them and reads in them from the next look. Corners the referee
// has moved and not saved stay where they are when a new frame comes in.
(function () {
  "use strict";
  var region = document.getElementById("area");
  var figure = document.getElementById("area-figure");
  var form = document.getElementById("area-form");
  var photo = document.getElementById("area-photo");
  var svg = document.getElementById("area-svg");
  var quad = document.getElementById("area-quad");
  var handles = Array.prototype.slice.call(svg.querySelectorAll(".area-handle"));
  var result = document.getElementById("result");
  var tokenField = document.getElementById("token");
  var nameField = document.getElementById("referee-name");
  var reasonField = document.getElementById("area-reason");
  var frame = null;  // the photo drawn on: {sha, width, height}
  var corners = [];  // four [x, y] in the photo's pixels
  var moved = false;  // a corner was dragged since the area was last drawn from the server's data
  var dragging = -1;

  function say(text, ok) {
    result.textContent = text;
    result.className = "result " + (ok ? "ok" : "refused");
  }

  function draw() {
    quad.setAttribute("points", corners.map(function (c) { return c[0] + "," + c[1]; }).join(" "));
    handles.forEach(function (handle, k) {
      handle.setAttribute("cx", corners[k][0]);
      handle.setAttribute("cy", corners[k][1]);
    });
  }

  function wholeFrame(width, height) {  // nothing marked or found: the whole frame is read, so drawn
    return [[0, 0], [width, 0], [width, height], [0, height]];
  }

  function show(sha) {
    photo.src = "/photos/" + sha;
    frame.sha = sha;
  }

  function load() {
    var data = document.getElementById("area-data");
    if (!data) {
      figure.hidden = true;
      form.hidden = true;
      frame = null;
      return;
    }
    var width = parseFloat(data.dataset.photoWidth), height = parseFloat(data.dataset.photoHeight);
    if (moved && frame && frame.width === width && frame.height === height) {
      if (frame.sha !== data.dataset.photo) { show(data.dataset.photo); }
      return;
    }
    frame = { sha: "", width: width, height: height };
    show(data.dataset.photo);
    photo.setAttribute("width", width);
    photo.setAttribute("height", height);
    svg.setAttribute("viewBox", "0 0 " + width + " " + height);
    var sx = width / parseFloat(data.dataset.cornersWidth), sy = height / parseFloat(data.dataset.cornersHeight);
    var given = data.dataset.corners.split(" ").filter(Boolean).map(function (pair) {
      var xy = pair.split(",");
      return [parseFloat(xy[0]) * sx, parseFloat(xy[1]) * sy];
    });
    corners = given.length === 4 ? given : wholeFrame(width, height);
    var radius = Math.max(width, height) * 0.012;
    handles.forEach(function (handle) { handle.setAttribute("r", radius); });
    figure.hidden = false;
    form.hidden = false;
    moved = false;
    draw();
  }

  function pointOf(event) {
    var point = svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    var local = point.matrixTransform(svg.getScreenCTM().inverse());
    return [Math.min(Math.max(local.x, 0), frame.width), Math.min(Math.max(local.y, 0), frame.height)];
  }

  function nearest(point) {  // a finger need not hit the handle itself: the corner nearest it
    var best = -1, bestDistance = Math.max(frame.width, frame.height) * 0.08;
    corners.forEach(function (corner, k) {
      var distance = Math.hypot(corner[0] - point[0], corner[1] - point[1]);
      if (distance < bestDistance) { best = k; bestDistance = distance; }
    });
    return best;
  }

  svg.addEventListener("pointerdown", function (event) {
    if (!frame) { return; }
    var handle = event.target.closest(".area-handle");
    dragging = handle ? parseInt(handle.dataset.corner, 10) : nearest(pointOf(event));
    if (dragging < 0) { return; }
    handles[dragging].classList.add("dragged");
    svg.setPointerCapture(event.pointerId);
    event.preventDefault();
  });

  svg.addEventListener("pointermove", function (event) {
    if (dragging < 0) { return; }
    corners[dragging] = pointOf(event);
    moved = true;
    draw();
    event.preventDefault();
  });

  function drop() {
    if (dragging >= 0) { handles[dragging].classList.remove("dragged"); }
    dragging = -1;
  }
  svg.addEventListener("pointerup", drop);
  svg.addEventListener("pointercancel", drop);

  function send(body) {
    body.referee = nameField.value;
    body.reason = reasonField.value;
    say(result.dataset.sending, true);
    window.tilerefDesk.post("area", tokenField.value, body)
      .then(function (answer) {
        say(answer.data.words || answer.data.error, answer.status === 200);
        if (answer.status === 200) {
          moved = false;
          load();  // the area as the table now keeps it
        }
      })
      .catch(function () { say(result.dataset.unreachable, false); });
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    if (!frame) { return; }
    send({ corners: corners.map(function (c) { return [Math.round(c[0] * 10) / 10, Math.round(c[1] * 10) / 10]; }),
           width: frame.width, height: frame.height });
  });
  document.getElementById("area-find").addEventListener("click", function () { send({ found: true }); });
  region.addEventListener("region-swapped", load);
  load();
})();
