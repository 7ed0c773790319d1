// gpuplan embed helper for host pages. Include it once, then mark iframes:
//   <iframe src="https://planner.example/?embed=1" data-gpuplan title="gpuplan"></iframe>
//   <script src="https://planner.example/embed.js"></script>
// It sizes each marked iframe to the height the planner reports, relays the
// plan summary as a `gpuplan:plan` DOM event on the iframe, and offers
// `gpuplanEmbed.sendOffers(iframe, offers)` to pass the host's own prices
// (the planner accepts them only from origins listed in its `host` URL key).
(function () {
  'use strict';
  var frames = function () { return document.querySelectorAll('iframe[data-gpuplan]'); };
  function frameFor(source) {
    var list = frames();
    for (var i = 0; i < list.length; i++) if (list[i].contentWindow === source) return list[i];
    return null;
  }
  window.addEventListener('message', function (e) {
    var frame = frameFor(e.source);
    var d = e.data;
    if (!frame || !d || d.source !== 'gpuplan') return;
    if (new URL(frame.src, location.href).origin !== e.origin) return;
    if (d.type === 'height' && typeof d.height === 'number' && d.height > 0 && d.height < 100000) {
      frame.style.height = Math.ceil(d.height) + 'px';
    } else if (d.type === 'plan') {
      frame.dispatchEvent(new CustomEvent('gpuplan:plan', { detail: { summary: d.summary, link: d.link } }));
    }
  });
  window.gpuplanEmbed = {
    sendOffers: function (frame, offers) {
      var origin = new URL(frame.src, location.href).origin;
      frame.contentWindow.postMessage({ source: 'gpuplan-host', type: 'offers', offers: offers }, origin);
    }
  };
})();
