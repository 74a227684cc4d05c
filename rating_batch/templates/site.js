// The rating list's filters and sort (docs/site.md): plain script, no library, no server.
(function () {
  "use strict";
  var table = document.querySelector("table.list");
  if (!table) return;
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var year = Number(table.dataset.year);
  var junior = Number(table.dataset.junior);
  var senior = Number(table.dataset.senior);
  var group = document.getElementById("group");
  var federation = document.getElementById("fed");
  var search = document.getElementById("q");
  var shown = document.getElementById("shown");
  // A name folded as the database folds it (rating_batch/names.py, name_key): accents
  // gone, the letters with no accent to strip spelt out (Groß is gross), a German umlaut
  // written out made one letter (Mueller is Muller), apostrophes gone, case aside.
  var SPELT = {"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d",
               "þ": "th", "ı": "i"};
  var plain = function (text) {
    return text.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "")
      .replace(/[ßæœøłđðþı]/g, function (letter) { return SPELT[letter]; })
      .replace(/['’`´]/g, "").replace(/([aou])e/g, "$1");
  };
  var names = rows.map(function (row) { return plain(row.cells[1].textContent); });

  function wanted(row, index, kind, fed, words) {
    var data = row.dataset;
    var age = year - Number(data.born);
    var inGroup = kind === "all" ||
      (kind === "women" && data.sex === "F") ||
      (kind === "juniors" && data.born !== "" && age < junior) ||
      (kind === "seniors" && data.born !== "" && age >= senior);
    return inGroup && (!fed || data.fed === fed) &&
      words.every(function (word) { return names[index].indexOf(word) >= 0; });
  }

  function filter() {
    var words = plain(search.value).split(/\s+/).filter(Boolean);
    var count = 0;
    rows.forEach(function (row, index) {
      var keep = wanted(row, index, group.value, federation.value, words);
      row.hidden = !keep;
      if (keep) count += 1;
    });
    shown.textContent = String(count);
  }

  function sortBy(header) {
    var column = header.cellIndex;
    var numeric = header.dataset.sort === "num";
    var ascending = header.getAttribute("aria-sort") !== "ascending";
    var value = function (row) {
      var text = row.cells[column].textContent.replace("−", "-").trim();
      if (!numeric) return plain(text);
      return text === "" ? NaN : Number(text.replace("+", ""));
    };
    var keyed = rows.map(function (row, index) { return [value(row), index, row]; });
    keyed.sort(function (a, b) {
      var x = a[0], y = b[0];
      if (numeric && isNaN(x) !== isNaN(y)) return isNaN(x) ? 1 : -1;  // blanks last
      if (x < y) return ascending ? -1 : 1;
      if (x > y) return ascending ? 1 : -1;
      return a[1] - b[1];
    });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (cell) {
      cell.removeAttribute("aria-sort");
    });
    header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var fragment = document.createDocumentFragment();
    keyed.forEach(function (entry) { fragment.appendChild(entry[2]); });
    body.appendChild(fragment);
  }

  [group, federation].forEach(function (input) { input.addEventListener("change", filter); });
  search.addEventListener("input", filter);
  table.tHead.addEventListener("click", function (event) {
    var header = event.target.closest("th");
    if (header) sortBy(header);
  });
  document.querySelector("form.filters").addEventListener("submit", function (event) {
    event.preventDefault();
  });
})();
