// Registers the site's service worker (/sw.js, scope "/": docs/push.md) on every page, so the
// site can be installed and can show notifications. It keeps no private page.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function (registration) {
      document.documentElement.dataset.serviceWorker = "registered";
      return navigator.serviceWorker.ready.then(function (ready) {
        document.documentElement.dataset.serviceWorker = ready.active ? "active" : "registered";
        document.documentElement.dataset.serviceWorkerScope = ready.scope;
      });
    }).catch(function () {
      document.documentElement.dataset.serviceWorker = "failed";
    });
  });
})();
