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
        return { empty: text === "" || text === "\u2013", number: number, text: text };
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
