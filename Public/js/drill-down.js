// Value list drill-down (single and multiple). The cell shows the label and the current
// selection with a chevron; activating it pushes a list screen titled with the list's title
// (`data-title`), else the field's label (inside the sheet at regular width, full screen at
// compact), with Back instead of Cancel, an expandable search, the list's groups, radios for one
// value and checkboxes for several with a "Selected" group on top. A choice applies at once:
// there is no Apply button. The native control stays in the form (hidden), so what is submitted
// is what it always was.
import { button, element } from "./element.js";
import { labelText } from "./label-text.js";
import { isCompact } from "./layout.js";
import { longListInput } from "./long-list-input.js";

let counter = 0;

/// The options of a native control: value, label, group label, chosen, and a setter.
function optionsOf(control) {
  if (control.tagName === "SELECT") {
    return Array.from(control.options).filter((o) => o.value !== "").map((o) => ({
      value: o.value, label: o.text, group: o.parentElement.tagName === "OPTGROUP" ? o.parentElement.label : "",
      get chosen() { return o.selected; },
      choose(on) {
        control.value = on ? o.value : "";
        control.dispatchEvent(new Event("change", { bubbles: true }));
      },
    }));
  }
  return Array.from(control.querySelectorAll("input[type=checkbox], input[type=radio]")).map((box) => {
    const legend = box.closest("fieldset.fw-checkboxes__group")?.querySelector("legend");
    const label = control.querySelector('label[for="' + CSS.escape(box.id) + '"]');
    return {
      value: box.value, label: box.dataset.label || (label ? label.textContent : box.value),
      group: legend ? legend.textContent : "",
      get chosen() { return box.checked; },
      choose(on) {
        box.checked = on;
        box.dispatchEvent(new Event("change", { bubbles: true }));
      },
    };
  });
}

/// A match from the server for a long list, chosen through the list's inputs in the page (an
/// input is added for a value the page does not hold yet). Chosen, it fills the other fields
/// the match gives values to (`fills`).
function remoteOption(control, match) {
  const find = () => Array.from(control.querySelectorAll("input[type=checkbox], input[type=radio]"))
    .find((input) => input.value === match.value);
  return {
    value: match.value, label: match.label, group: match.group || "",
    get chosen() { return !!find()?.checked; },
    choose(on) {
      const input = on ? longListInput(control, match.value, match.label) : find();
      if (input) {
        input.checked = on;
        input.dispatchEvent(new Event("change", { bubbles: true }));
      }
      // A value help's row fills the fields it gives (value-fills.js, on a service's lists).
      if (on && match.fills) control.dispatchEvent(new CustomEvent("fw:fills", { bubbles: true, detail: match.fills }));
    },
  };
}

/// "A", or "A, B, C and 3 more" cut to what fits `span`: as many items as fit, the rest counted.
export function summarise(span, items) {
  if (items.length <= 1) {
    span.textContent = items[0] || "";
    return;
  }
  for (let shown = items.length; shown >= 1; shown--) {
    const rest = items.length - shown;
    span.textContent = rest === 0
      ? items.slice(0, -1).join(", ") + " and " + items[items.length - 1]
      : items.slice(0, shown).join(", ") + " and " + rest + " more";
    if (span.scrollWidth <= span.clientWidth + 1) return;
  }
}

function placeOver(dialog, sheet) {
  if (isCompact() || !sheet) {
    dialog.classList.add("fw-drilldown--full");
    return;
  }
  const r = sheet.getBoundingClientRect();
  Object.assign(dialog.style, { top: r.top + "px", left: r.left + "px", width: r.width + "px", height: r.height + "px" });
}

function openList(cell, control, title, multiple, done) {
  // A long list searches on the server; any other holds its options in the page.
  const remote = !!control.dataset.optionsUrl && control.classList.contains("fw-longlist");
  const options = optionsOf(control);
  const searchable = remote || control.hasAttribute("data-searchable") || options.length > 10;
  const dialog = element("dialog", "fw-drilldown");
  const id = "fw-drilldown-" + ++counter;
  dialog.setAttribute("aria-labelledby", id + "-title");

  const header = element("header", "fw-drilldown__bar");
  const back = button("Back", "fw-drilldown__back");
  const heading = element("h2", "fw-drilldown__title");
  heading.id = id + "-title";
  heading.textContent = title;
  const toggle = button("", "fw-drilldown__search-toggle");
  toggle.setAttribute("aria-label", "Search " + title);
  header.append(back, heading);
  if (searchable) header.append(toggle);

  const search = element("input", "fw-input fw-drilldown__search");
  search.type = "search";
  search.setAttribute("aria-label", "Search " + title);
  search.setAttribute("autocomplete", "off");
  search.hidden = !remote;
  toggle.setAttribute("aria-expanded", String(remote));

  const body = element("div", "fw-drilldown__body");
  const status = element("p", "fw-visually-hidden");
  status.setAttribute("aria-live", "polite");

  const rows = [];
  let n = 0;
  // Groups in the list's order, the chosen values first under "Selected" (several only).
  const render = (options) => {
    body.replaceChildren();
    rows.length = 0;
    const groups = new Map();
    if (multiple && options.some((o) => o.chosen)) groups.set("Selected", options.filter((o) => o.chosen));
    for (const option of options) {
      if (multiple && option.chosen) continue;
      if (!groups.has(option.group)) groups.set(option.group, []);
      groups.get(option.group).push(option);
    }
    for (const [name, members] of groups) {
      const group = element("fieldset", "fw-drilldown__group");
      const legend = element("legend", name ? "fw-drilldown__legend" : "fw-visually-hidden", name || title);
      group.append(legend);
      for (const option of members) {
        const row = element("div", "fw-drilldown__row");
        const input = document.createElement("input");
        input.type = multiple ? "checkbox" : "radio";
        input.id = id + "-" + n++;
        // Radios of their own (no shared name): arrow keys move between rows without choosing,
        // Space chooses, as for several values.
        input.name = input.id;
        input.className = "fw-drilldown__input";
        input.checked = option.chosen;
        const label = document.createElement("label");
        label.htmlFor = input.id;
        label.className = "fw-drilldown__label";
        label.textContent = option.label;
        row.append(input, label);
        row.dataset.match = (option.label + " " + option.value).toLowerCase();
        row.fwOption = option;
        group.append(row);
        rows.push(row);
        input.addEventListener("change", () => {
          option.choose(input.checked);
          done();
          // One value: the choice is made, back to the form.
          if (!multiple) dialog.close();
        });
      }
      body.append(group);
    }
  };

  // The server's matches for what is typed, the chosen values kept on top; a page at a time,
  // the next one added below by "Show N more" (a growing list).
  let asked = 0;
  let shown = [];
  let got = 0;
  let pageSize = 0;
  const more = button("", "fw-button fw-button--secondary fw-drilldown__more");
  const ask = async (page = 1) => {
    const mine = ++asked;
    const url = new URL(control.dataset.optionsUrl, location.href);
    // The answers that filter this list (`data-filtered-by`: a service value help's In
    // parameters, or `*` for an XForm's filtered itemset), none for another: short values only,
    // never the form's own controls (`_csrf`, `NAME._q`; an item's `_Booking[0].AirlineID` is a field).
    const by = control.dataset.filteredBy?.split(" ") ?? [];
    for (const [key, value] of new FormData(control.closest("form") ?? undefined)) {
      if (typeof value === "string" && value && value.length <= 200 && key !== control.dataset.name
        && (by[0] === "*" || by.includes(key)) && !/^_[^[]*$|\._|^(q|page)$/.test(key)) url.searchParams.append(key, value);
    }
    url.searchParams.set("q", search.value.trim());
    url.searchParams.set("page", page);
    const answer = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (!answer.ok || mine !== asked) return;
    const found = await answer.json();
    const chosen = optionsOf(control).filter((o) => o.chosen);
    const matches = found.options.filter((m) => !chosen.some((o) => o.value === m.value))
      .map((m) => remoteOption(control, m));
    if (page === 1) {
      shown = multiple ? chosen : [];
      got = 0;
      pageSize = found.options.length;
    }
    shown = shown.concat(matches);
    got += found.options.length;
    render(shown);
    const left = found.total - got;
    more.textContent = "Show " + Math.min(left, pageSize) + " more of " + left;
    more.onclick = () => ask(page + 1);
    if (found.more) body.append(more);
    // The first of the rows just added takes focus, so the list goes on where it was (the
    // button, or the last row, when the page held only chosen values).
    if (page > 1) {
      (rows.find((row) => row.fwOption === matches[0])?.querySelector("input")
        || (found.more ? more : rows.at(-1)?.querySelector("input")))?.focus();
    }
    status.textContent = found.total === 1 ? "1 match" : found.total + " matches"
      + (found.more ? ", " + got + " shown" : "");
  };

  if (remote) ask(); else render(options);

  toggle.addEventListener("click", () => {
    search.hidden = !search.hidden;
    toggle.setAttribute("aria-expanded", String(!search.hidden));
    if (!search.hidden) search.focus();
  });
  let timer;
  search.addEventListener("input", () => {
    if (remote) {
      clearTimeout(timer);
      timer = setTimeout(() => ask(), 200);
      return;
    }
    const query = search.value.trim().toLowerCase();
    let shown = 0;
    for (const row of rows) {
      row.hidden = query !== "" && !row.dataset.match.includes(query);
      if (!row.hidden) shown += 1;
    }
    for (const group of body.querySelectorAll(".fw-drilldown__group")) {
      group.hidden = !group.querySelector(".fw-drilldown__row:not([hidden])");
    }
    status.textContent = shown === 1 ? "1 match" : shown + " matches";
  });
  back.addEventListener("click", () => dialog.close());
  body.addEventListener("keydown", (event) => {
    // Enter chooses the focused row, as Space does.
    if (event.key === "Enter" && event.target.matches("input")) {
      event.preventDefault();
      event.target.click();
      return;
    }
    const step = event.key === "ArrowDown" ? 1 : event.key === "ArrowUp" ? -1 : 0;
    if (!step) return;
    const inputs = Array.from(body.querySelectorAll(".fw-drilldown__row:not([hidden]) input"));
    const at = inputs.indexOf(event.target);
    if (at < 0) return;
    event.preventDefault();
    inputs[Math.min(Math.max(at + step, 0), inputs.length - 1)].focus();
  });

  dialog.append(header, search, body, status);
  document.body.append(dialog);
  placeOver(dialog, cell.closest(".fw-sheet"));
  dialog.addEventListener("close", () => {
    dialog.remove();
    cell.focus();
  });
  dialog.showModal();
  (remote ? search : body.querySelector("input:checked") || body.querySelector("input") || back).focus();
}

export function enhance(root) {
  root.querySelectorAll("[data-drilldown]").forEach((control) => {
    const long = control.classList.contains("fw-longlist");
    const multiple = long ? control.hasAttribute("data-multiple") : control.tagName !== "SELECT";
    const field = control.closest(".fw-cell");
    const title = multiple && !long
      ? (field?.querySelector("legend")?.cloneNode(true) ?? null)
      : null;
    let name = labelText(long ? control.querySelector(".fw-longlist__query") ?? control : control);
    if (title) {
      title.querySelectorAll(".fw-visually-hidden, .fw-label__required, .fw-label__optional").forEach((e) => e.remove());
      name = title.textContent.replace(/\s+/g, " ").trim();
    }
    const readOnly = long
      ? !control.querySelector(".fw-longlist__query")
      : multiple ? !control.querySelector("input:not([disabled])") : control.disabled;

    const cell = document.createElement(readOnly ? "div" : "button");
    cell.className = "fw-drill" + (readOnly ? " fw-drill--readonly" : "");
    if (!readOnly) cell.type = "button";
    const value = element("span", "fw-drill__value");
    // Nothing chosen shows what the select's empty option says ("Select"), as a placeholder.
    if (!readOnly) value.dataset.placeholder = control.querySelector('option[value=""]')?.textContent || "Select";
    cell.append(value);
    if (!readOnly) {
      const chevron = element("span", "fw-drill__chevron");
      chevron.setAttribute("aria-hidden", "true");
      cell.append(chevron);
      // The control keeps its describedby (hint, error) on the cell that replaces it.
      const described = control.getAttribute("aria-describedby")
        || field?.querySelector("fieldset")?.getAttribute("aria-describedby");
      if (described) cell.setAttribute("aria-describedby", described);
      if (control.getAttribute("aria-invalid") === "true") cell.setAttribute("aria-invalid", "true");
    }
    const update = () => {
      const chosen = optionsOf(control).filter((o) => o.chosen).map((o) => o.label);
      summarise(value, chosen);
      cell.setAttribute("aria-label", name + ": " + (chosen.length ? chosen.join(", ") : "none chosen"));
      if (readOnly) cell.setAttribute("role", "group");
    };
    control.hidden = true;
    control.insertAdjacentElement("afterend", cell);
    // Links to the field (the error summary's) and its label land on the cell: it takes the
    // field's id from the select, or from the first checkbox.
    const owner = long
      ? control.querySelector(".fw-longlist__query")
      : multiple ? control.querySelector("input[type=checkbox]") : control;
    if (owner && owner.id) {
      const fieldID = owner.id;
      owner.id = fieldID + "-native";
      control.querySelector('label[for="' + CSS.escape(fieldID) + '"]')?.setAttribute("for", owner.id);
      cell.id = fieldID;
    }
    update();
    new ResizeObserver(update).observe(cell);
    // A value put in by another field's choice (value-fills.js) shows at once.
    control.addEventListener("change", update);
    if (!readOnly) {
      cell.addEventListener("click", () => openList(cell, control, control.dataset.title || name, multiple, update));
    }
  });
}
