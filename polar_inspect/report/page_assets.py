"""The page's inline stylesheet and its table-sorting script (no external file: the page
works offline and from a copied folder)."""

STYLE = """
:root { --ink: #1f2328; --muted: #57606a; --line: #d0d7de; --soft: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 1150px; margin: 0 auto; padding: 1.2rem 1rem 3rem; }
h1 { font-size: 1.6rem; margin: .3rem 0 .6rem; }
h2 { font-size: 1.3rem; margin: 2.2rem 0 .6rem; padding-top: .6rem;
  border-top: 2px solid var(--line); }
h3 { font-size: 1.08rem; margin: 1.5rem 0 .4rem; }
h4 { font-size: .98rem; margin: 1rem 0 .3rem; }
p, li, dd { overflow-wrap: anywhere; }
nav { font-size: .9rem; color: var(--muted); }
nav a { margin-right: .8rem; }
.scroll { overflow-x: auto; max-width: 100%; margin: .4rem 0 1rem; }
table { border-collapse: collapse; font-size: .86rem; }
th, td { padding: .28rem .55rem; border-bottom: 1px solid var(--line); text-align: left;
  vertical-align: top; }
th { background: var(--soft); font-weight: 600; }
td { overflow-wrap: break-word; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.nowrap { white-space: nowrap; overflow-wrap: normal; }
table.wide { font-size: .8rem; }
table.wide th, table.wide td { padding: .28rem .35rem; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th::after { content: "\\00a0\\2195"; color: #aab; font-weight: 400; }
table.sortable th[aria-sort="ascending"]::after { content: "\\00a0\\25B2"; color: var(--ink); }
table.sortable th[aria-sort="descending"]::after { content: "\\00a0\\25BC"; color: var(--ink); }
.ci { color: var(--muted); font-size: .92em; }
.change { font-weight: 600; }
dl.setup { display: grid; grid-template-columns: minmax(9rem, max-content) 1fr;
  gap: .15rem 1rem; margin: .4rem 0 1rem; padding: .6rem .8rem; background: var(--soft);
  border: 1px solid var(--line); border-radius: 6px; font-size: .9rem; }
dl.setup dt { font-weight: 600; }
dl.setup dd { margin: 0; }
figure { margin: 1rem 0 1.6rem; }
figure img { display: block; max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: .87rem; color: var(--muted); margin-top: .3rem; }
details { margin: .5rem 0; border: 1px solid var(--line); border-radius: 6px;
  padding: .3rem .8rem; }
details[open] { padding-bottom: .8rem; }
summary { cursor: pointer; font-weight: 600; padding: .2rem 0; }
summary .note { font-weight: 400; }
.note { font-size: .88rem; color: var(--muted); }
.warning { background: #fff4d6; border-left: 4px solid #e0a800; padding: .6rem 1rem; }
.oracle { font-weight: 600; color: #8a4b00; }
code { background: var(--soft); padding: 0 3px; border-radius: 3px; }
@media (max-width: 600px) {
  body { font-size: 14px; }
  main { padding: .8rem .6rem 2rem; }
  dl.setup { grid-template-columns: 1fr; }
  dl.setup dd { margin-bottom: .35rem; }
}
"""

#: Click a header to sort by its column (again: the other way). Cells sort by their
#: `data-sort` value when they have one: numbers as numbers, empty values last.
SORT_SCRIPT = """
document.querySelectorAll("table.sortable").forEach(function (table) {
  table.querySelectorAll("thead th").forEach(function (th, column) {
    th.tabIndex = 0;
    th.title = "Sort by this column";
    function sort() {
      var up = th.getAttribute("aria-sort") !== "ascending";
      table.querySelectorAll("thead th").forEach(function (h) {
        h.removeAttribute("aria-sort");
      });
      th.setAttribute("aria-sort", up ? "ascending" : "descending");
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      function key(row) {
        var cell = row.cells[column];
        var text = cell.hasAttribute("data-sort") ? cell.getAttribute("data-sort")
                                                  : cell.textContent.trim();
        var number = text === "" ? NaN : Number(text);
        return { empty: text === "" || text === "\\u2013", number: number, text: text };
      }
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        if (x.empty !== y.empty) { return x.empty ? 1 : -1; }
        var order = !isNaN(x.number) && !isNaN(y.number) ? x.number - y.number
                    : x.text.localeCompare(y.text, undefined, { numeric: true });
        return up ? order : -order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    }
    th.addEventListener("click", sort);
    th.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); sort(); }
    });
  });
});
"""
