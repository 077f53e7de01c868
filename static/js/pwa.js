// Num scores as an installable app: registers the service worker (static/js/sw.js, served at
// /sw.js) once the page has loaded, so that it never competes with the page's own requests.
"use strict";

if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(() => navigator.serviceWorker.ready).then((reg) => {
      // The offline page is shown in the language of the last page seen.
      if (reg.active && !document.getElementById("offline")) reg.active.postMessage({ lang: document.documentElement.lang });
    }).catch(() => {
      /* no service worker (private mode, old browser): the app works online as before */
    });
  });
}

// The offline page's "Try again" reloads the address that could not be reached.
document.addEventListener("DOMContentLoaded", () => {
  const retry = document.getElementById("retry");
  if (retry) retry.addEventListener("click", () => window.location.reload());
});
