// Num scores: how the scripts say numbers and counts, the same way as the pages.
//   NumWords.number(-3)   "−3" (a true minus sign, U+2212), as the template filter `num`
//   NumWords.signed(16)   "+16", as the filter `signed`
//   NumWords.plural(n, one, other)  the catalogue's plural rule (its Plural-Forms header, from
//       Django's JavaScript catalogue: pluralidx): French 0 and 1 singular (plural=(n > 1)),
//       English 1 only (plural=(n != 1)); for words that come from elsewhere (an engine's nouns)
//   NumWords.rows(n)      "3 manches", "1 partie": the game's own noun of a sheet's row,
//   NumWords.row(n)       "Manche 4", "Partie 4"   as its engine names it (#board's data-row-*)
//   NumWords.capital()    "Manche", "Partie"
// An ES module, like every script of the pages (they share nothing but what they import); it
// reads the JavaScript catalogue (gettext, pluralidx: the page loads it first, base.html).
// tests/e2e/test_game_words.py checks it against Django.

export const NumWords = (() => {
  const plural = (n, one, other) => (window.pluralidx(Math.abs(n)) ? other : one);
  const number = (n) => (typeof n !== "number" || Number.isNaN(n) ? "" : n < 0 ? `\u2212${-n}` : String(n));
  const signed = (n) => (n > 0 ? `+${n}` : number(n));
  const noun = () => {
    const board = document.querySelector("#board");
    const data = board ? board.dataset : {};
    return { one: data.rowOne || window.gettext("round"), other: data.rowOther || window.gettext("rounds") };
  };
  const rows = (n) => `${n} ${plural(n, noun().one, noun().other)}`;
  const capital = () => { const one = noun().one; return `${one.charAt(0).toUpperCase()}${one.slice(1)}`; };
  const row = (n) => `${capital()} ${n}`;
  return { plural, number, signed, noun, rows, row, capital };
})();
