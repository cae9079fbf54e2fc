// Fieldwork enhancements. Every page works without this file; it only makes inputs nicer.
(function () {
  "use strict";

  // Slider: show the number field beside the range and keep both in step.
  // Only the range is named, so the submitted value is unambiguous.
  function enhanceSliders(root) {
    root.querySelectorAll(".fw-slider").forEach(function (slider) {
      var range = slider.querySelector(".fw-slider__range");
      var pair = slider.querySelector(".fw-slider__pair");
      var number = slider.querySelector(".fw-slider__number");
      if (!range || !pair || !number) return;
      pair.hidden = false;
      number.value = range.value;
      range.addEventListener("input", function () { number.value = range.value; });
      number.addEventListener("input", function () {
        if (number.value !== "" && !isNaN(Number(number.value))) range.value = number.value;
      });
      number.addEventListener("change", function () { number.value = range.value; });
    });
  }

  // Grouped characters: "#" a digit, "A" a letter, "*" anything, other characters literal.
  // The server strips the literals again, so this is cosmetic.
  function applyFormat(format, raw) {
    var chars = raw.replace(/[^0-9A-Za-z]/g, "").split("");
    var out = "";
    for (var i = 0; i < format.length && chars.length > 0; i++) {
      var f = format.charAt(i);
      if (f === "#" || f === "A" || f === "*") {
        var c = chars[0];
        var ok = f === "*" || (f === "#" ? /[0-9]/.test(c) : /[A-Za-z]/.test(c));
        if (!ok) { chars.shift(); i--; continue; }
        out += chars.shift();
      } else {
        out += f;
      }
    }
    return out;
  }

  function enhanceFormats(root) {
    root.querySelectorAll("input[data-format]").forEach(function (input) {
      var format = input.getAttribute("data-format");
      input.addEventListener("input", function () {
        var atEnd = input.selectionStart === input.value.length;
        var formatted = applyFormat(format, input.value);
        if (formatted !== input.value && atEnd) input.value = formatted;
      });
    });
  }

  // Attachments: say how many files are chosen, against the limit.
  function enhanceAttachments(root) {
    root.querySelectorAll(".fw-attachments__input").forEach(function (input) {
      var count = input.parentNode.querySelector(".fw-attachments__count");
      if (!count) {
        count = document.createElement("p");
        count.className = "fw-attachments__count";
        input.parentNode.appendChild(count);
      }
      var original = count.textContent;
      count.setAttribute("aria-live", "polite");
      input.addEventListener("change", function () {
        var n = input.files ? input.files.length : 0;
        var max = input.getAttribute("data-max-count");
        if (n === 0) { count.textContent = original; return; }
        count.textContent = n + (n === 1 ? " file" : " files") + " chosen" + (max ? " (up to " + max + ")" : "");
      });
    });
  }

  // After a failed submit, move focus to the error summary so it is read first. It already
  // stands at the top of the new page; letting focus() scroll would measure it while the sheet
  // is still sliding in (a screen height lower) and leave the page scrolled far past it.
  function focusErrorSummary(root) {
    var summary = root.querySelector(".fw-error-summary");
    if (summary) summary.focus({ preventScroll: true });
  }

  // Admin import: files dropped on the zone join the file input (so the form posts them as if
  // chosen), and the chosen names are listed in order, since that order is the import's order.
  function enhanceDropzones(root) {
    root.querySelectorAll("[data-dropzone]").forEach(function (zone) {
      var input = zone.querySelector("input[type=file]");
      if (!input || typeof DataTransfer === "undefined") return;
      var list = document.createElement("ol");
      list.className = "fw-dropzone__files";
      list.setAttribute("aria-live", "polite");
      zone.appendChild(list);
      function show() {
        list.textContent = "";
        Array.prototype.forEach.call(input.files || [], function (file) {
          var item = document.createElement("li");
          item.textContent = file.name;
          list.appendChild(item);
        });
      }
      input.addEventListener("change", show);
      ["dragenter", "dragover"].forEach(function (type) {
        zone.addEventListener(type, function (event) {
          event.preventDefault();
          zone.classList.add("fw-dropzone--over");
        });
      });
      ["dragleave", "drop"].forEach(function (type) {
        zone.addEventListener(type, function () { zone.classList.remove("fw-dropzone--over"); });
      });
      zone.addEventListener("drop", function (event) {
        event.preventDefault();
        var all = new DataTransfer();
        Array.prototype.forEach.call(input.files || [], function (file) { all.items.add(file); });
        Array.prototype.forEach.call(event.dataTransfer.files, function (file) { all.items.add(file); });
        input.files = all.files;
        show();
      });
    });
  }

  // A searchable value list gets a filter box above its select: typing hides the options (and
  // empty groups) that do not match, by label or value. Without JavaScript the select is whole.
  function enhanceSearchableLists(root) {
    root.querySelectorAll("select[data-searchable]").forEach(function (select) {
      if (select.disabled) return;
      var search = document.createElement("input");
      search.type = "search";
      search.className = "fw-input fw-select-filter";
      search.id = select.id + "-filter";
      search.setAttribute("autocomplete", "off");
      var label = document.querySelector('label[for="' + select.id + '"]');
      search.setAttribute("aria-label", "Filter " + (label ? label.textContent.replace(/\s*\*\s*$/, "").trim() : "options"));
      search.setAttribute("aria-controls", select.id);
      search.placeholder = "Type to filter";
      select.parentNode.insertBefore(search, select);
      search.addEventListener("input", function () {
        var query = search.value.trim().toLowerCase();
        var shown = 0;
        Array.prototype.forEach.call(select.options, function (option) {
          if (!option.value) return;
          var match = !query || option.text.toLowerCase().indexOf(query) >= 0 || option.value.toLowerCase().indexOf(query) >= 0;
          option.hidden = !match;
          if (match) shown += 1;
        });
        select.querySelectorAll("optgroup").forEach(function (group) {
          group.hidden = !Array.prototype.some.call(group.children, function (option) { return !option.hidden; });
        });
        search.setAttribute("aria-description", shown + (shown === 1 ? " option" : " options"));
      });
    });
  }

  function init() {
    enhanceDropzones(document);
    enhanceSearchableLists(document);
    enhanceSliders(document);
    enhanceFormats(document);
    enhanceAttachments(document);
    focusErrorSummary(document);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
