// Num scores as an installable app: registers the service worker (static/js/sw.js, served at
// /sw.js) once the page has loaded, so that it never competes with the page's own requests.
"use strict";

if ("serviceWorker" in navigator) {
  const sw = navigator.serviceWorker;
  window.addEventListener("load", async () => {
    try {
      await sw.register("/sw.js", { scope: "/" });
      const reg = await sw.ready;
      if (!reg.active || document.getElementById("offline")) return;
      // The offline page is shown in the language of the last page seen.
      reg.active.postMessage({ lang: document.documentElement.lang });
      if (!sw.controller) {
        await new Promise((resolve) => {
          sw.addEventListener("controllerchange", resolve, { once: true });
          setTimeout(resolve, 1000);
        });
      }
      // Still not controlled: this page was loading while the worker was installed, so it
      // went past it. Ask the worker to keep it for offline use.
      if (!sw.controller) reg.active.postMessage({ keep: window.location.pathname + window.location.search });
    } catch (e) {
      /* no service worker (private mode, old browser): the app works online as before */
    }
  });
}

// The offline page's "Try again" reloads the address that could not be reached.
document.addEventListener("DOMContentLoaded", () => {
  const retry = document.getElementById("retry");
  if (retry) retry.addEventListener("click", () => window.location.reload());
});
