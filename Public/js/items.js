// Item lists without a page load: Add clones the list's server-rendered <template> (a new item
// at a placeholder index, its defaults filled in) and Remove takes the item out. Inputs keep the
// names the server reads (`members[3].age`): it takes the indices in any order, gaps too, and
// numbers them again. Legends and the heading's count follow; the focus goes to the new item's
// first field, or to the list's heading after a removal; an XForm's rules are asked again
// (rules.js listens for "fw-items-changed"). Without JavaScript both buttons send the form back.
import { enhance as enhanceAll } from "./fieldwork.js";

// ItemListSlot.templateIndex.
const placeholder = "[999999]";

function items(list) {
  return Array.from(list.querySelectorAll(":scope > .fw-item"));
}

/// The list's heading, legends and Remove labels numbered again; Add off at the most items.
function renumber(list) {
  const template = list.querySelector(":scope > template[data-item-template]");
  if (!template) return;
  const { label, object, noun, max } = template.dataset;
  const all = items(list);
  const heading = list.querySelector(":scope > .fw-items__label");
  if (heading) heading.textContent = `${label} (${all.length})`;
  all.forEach((item, index) => {
    const legend = item.querySelector(":scope > legend");
    if (legend) legend.textContent = `${object} ${index + 1}`;
    const remove = item.querySelector(':scope > .fw-item__actions > button[name="_remove"]');
    if (remove) remove.textContent = `Remove ${noun} ${index + 1}`;
  });
  const add = list.querySelector(':scope > .fw-items__actions > button[name="_add"]');
  if (add) add.disabled = all.length >= Number(max);
}

/// The next index of a list: past every index its items use.
function nextIndex(list) {
  const prefix = list.dataset.list + "[";
  let next = 0;
  for (const item of items(list)) {
    const id = item.querySelector(':scope > input[name$="._id"], input, select, textarea');
    const name = id?.name ?? "";
    if (!name.startsWith(prefix)) continue;
    const index = Number.parseInt(name.slice(prefix.length), 10);
    if (Number.isInteger(index) && index >= next) next = index + 1;
  }
  return Math.max(next, Number(list.dataset.next ?? 0));
}

/// Adds or takes away a list's last items until it has `count` (a count the form's rules give).
export async function resize(list, count, form) {
  while (items(list).length < count) await add(list, form, false);
  const extra = items(list).slice(count);
  for (const item of extra) item.remove();
  renumber(list);
  if (extra.length > 0) form.dispatchEvent(new CustomEvent("fw-items-changed"));
}

async function add(list, form, focus = true) {
  const template = list.querySelector(":scope > template[data-item-template]");
  const index = nextIndex(list);
  list.dataset.next = String(index + 1);
  const holder = document.createElement("template");
  holder.innerHTML = template.innerHTML.replaceAll(
    list.dataset.list + placeholder,
    `${list.dataset.list}[${index}]`,
  );
  const item = holder.content.firstElementChild;
  template.before(item);
  renumber(list);
  await enhanceAll(item);
  const first = item.querySelector("input:not([type=hidden]), select, textarea");
  if (focus && first) first.focus();
  form.dispatchEvent(new CustomEvent("fw-items-changed"));
}

function remove(item, form) {
  const list = item.parentElement;
  item.remove();
  renumber(list);
  list.querySelector(":scope > .fw-items__label")?.focus();
  form.dispatchEvent(new CustomEvent("fw-items-changed"));
}

export function enhance(root) {
  for (const form of root.querySelectorAll("form")) {
    if (!form.querySelector("section.fw-items[data-list]") || form.dataset.items === "on") continue;
    form.dataset.items = "on";
    form.addEventListener("click", (event) => {
      const button = event.target.closest('button[name="_add"], button[name="_remove"]');
      if (!button || !form.contains(button)) return;
      if (button.name === "_add") {
        const list = button.closest("section.fw-items[data-list]");
        if (!list?.querySelector(":scope > template[data-item-template]")) return;
        event.preventDefault();
        add(list, form);
      } else {
        const item = button.closest(".fw-item");
        if (!item?.parentElement?.matches("section.fw-items[data-list]")) return;
        event.preventDefault();
        remove(item, form);
      }
    });
  }
}
