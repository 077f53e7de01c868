// A page's set-up, once it is parsed: what app.js describes, for the main part and whatever the
// page's own modules joined (table.js, phones.js, referee.js). The pages that show a sheet, a
// form or a board load this module; the others load only what they use.
import { $$, setUpMain } from "./app.js";

document.documentElement.classList.add("js");

document.addEventListener("DOMContentLoaded", () => {
  setUpMain(document);
  // A tap outside an open detail pop-up closes it.
  document.addEventListener("click", (ev) => {
    $$("details.cell[open]").forEach((d) => { if (!d.contains(ev.target)) d.open = false; });
  });
  // Close other open detail pop-ups when one opens.
  document.addEventListener("toggle", (ev) => {
    if (ev.target.matches && ev.target.matches("details.cell") && ev.target.open) {
      $$("details.cell[open]").forEach((d) => { if (d !== ev.target) d.open = false; });
    }
  }, true);
});
