// Attachments as tiles, loaded by attachment-tiles.js when there are files to show: "+" first,
// then each file as a tile (a thumbnail or a type icon, the name and the size), and the label
// counts them: "Attachments (2)". Chosen files are kept in one DataTransfer, so choosing again
// adds to input.files; a file already received becomes a tile over its Keep box (hidden, still
// submitted). A tile opens the previewer: a modal dialog showing one file (an image; a PDF in a
// frame from a blob: URL, a chosen file's own or a stored one's fetched bytes; else its type
// icon and name), Previous and Next (and the arrow keys), and Delete after a confirmation. The
// detail page's list (a ul with data-attachments) opens it too, without "+" or Delete. Styles:
// attachments.css.
import { button, element } from "./element.js";
import { confirmDiscard } from "./unsaved-changes.js";

let styles;

/// Loads attachments.css once; resolves when it applies.
function stylesheet() {
  styles ||= new Promise((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = new URL("../css/attachments.css", import.meta.url).pathname;
    link.onload = link.onerror = resolve;
    document.head.append(link);
  });
  return styles;
}

/// Shows `items[items.indexOf(li)]`; `remove(li)` deletes a file, false disables Delete, null
/// leaves Delete out (the detail page).
export async function preview(items, li, remove) {
  await stylesheet();
  let index = items.indexOf(li);
  let blob = "";
  let shown = 0;
  const dialog = element("dialog", "fw-preview");
  dialog.setAttribute("aria-labelledby", "fw-preview-title");
  const bar = element("div", "fw-preview__bar");
  const close = button("Close", "fw-button");
  const title = element("h2", "fw-preview__title");
  title.id = "fw-preview-title";
  const remover = button("Delete", "fw-button fw-button--danger");
  remover.disabled = remove === false;
  bar.append(close, title);
  if (remove !== null) bar.append(remover);
  const body = element("div", "fw-preview__body");
  const nav = element("div", "fw-preview__nav");
  const previous = button("Previous", "fw-button");
  const next = button("Next", "fw-button");
  const position = element("span", "");
  nav.append(previous, position, next);
  dialog.append(bar, body, nav);

  async function show() {
    const turn = ++shown;
    URL.revokeObjectURL(blob);
    const item = items[index];
    const name = item.querySelector(".fw-attachment__name").textContent;
    title.textContent = name;
    position.textContent = index + 1 + " of " + items.length;
    // A button that turns disabled under focus would drop it to the page: it moves to the other.
    const focused = document.activeElement;
    previous.disabled = index === 0;
    next.disabled = index === items.length - 1;
    if (focused?.disabled) [previous, next, close].find((other) => !other.disabled).focus();
    const image = item.querySelector("img");
    let view;
    if (image) {
      view = new Image();
      view.src = image.src;
      view.alt = name;
    } else if (item.querySelector(".fw-attachment__icon--pdf")) {
      try {
        let bytes = item.fwFile;
        if (!bytes) {
          const response = await fetch(item.dataset.url);
          if (!response.ok) throw new Error(response.statusText);
          bytes = await response.arrayBuffer();
        }
        if (turn !== shown) return;
        blob = URL.createObjectURL(new Blob([bytes], { type: "application/pdf" }));
        view = document.createElement("iframe");
        view.src = blob;
        view.title = name;
        // The PDF viewer may take focus as it loads, and keys in it (Escape) never reach the
        // dialog: focus stays in the bar.
        view.onload = () => document.activeElement === view && close.focus();
      } catch { /* shown as its icon below */ }
    }
    if (!view) {
      view = element("div", "fw-preview__file");
      view.append(item.querySelector(".fw-attachment__icon").cloneNode(), name);
    }
    body.replaceChildren(view);
  }

  const step = (by) => {
    const to = Math.max(0, Math.min(items.length - 1, index + by));
    if (to !== index) { index = to; show(); }
  };
  close.addEventListener("click", () => dialog.close());
  previous.addEventListener("click", () => step(-1));
  next.addEventListener("click", () => step(1));
  // Left and Right move through the files, as in a photo viewer.
  dialog.addEventListener("keydown", (event) => {
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") step(event.key === "ArrowLeft" ? -1 : 1);
  });
  remover.addEventListener("click", async () => {
    const name = title.textContent;
    if (!await confirmDiscard("Delete " + name + "?", "Delete", "Cancel")) return;
    remove(items[index]);
    items.splice(index, 1);
    if (!items.length) return dialog.close();
    index = Math.min(index, items.length - 1);
    show();
  });
  // Where focus goes back to: the tile of the file shown last, else any tile left, else the
  // cell's file input (every file deleted).
  const cell = li.closest(".fw-attachments");
  dialog.addEventListener("close", () => {
    URL.revokeObjectURL(blob);
    dialog.remove();
    const tile = [items[index], li, ...items].find((t) => t?.isConnected && !t.hidden);
    (tile ? tile.querySelector("a, button") : cell?.querySelector("input[type=file]"))?.focus();
  });
  document.body.append(dialog);
  await show();
  dialog.showModal();
  close.focus();
}

/// Shows the number of tiles after the label's own text.
function count(label, list) {
  if (!label) return;
  let span = label.querySelector(".fw-attachments__n");
  if (!span) {
    span = element("span", "fw-attachments__n");
    label.firstChild.after(span);
  }
  const n = list.querySelectorAll("li:not([hidden])").length;
  span.textContent = n ? " (" + n + ")" : "";
}

/// A tile's opener: a button holding the thumbnail and the name.
function opener(...parts) {
  const made = button("", "fw-attachment__open");
  made.append(...parts);
  return made;
}

function span(kind, text) {
  return element("span", "fw-attachment__" + kind, text);
}

/// The tile of a chosen file: an image's thumbnail read as a data: URL, else a type icon.
function tile(file) {
  let thumb;
  if (/^image\/(png|jpeg|gif|webp)$/.test(file.type)) {
    thumb = new Image(88, 88);
    thumb.alt = "";
    thumb.className = "fw-attachment__thumb";
    const reader = new FileReader();
    reader.onload = () => { thumb.src = reader.result; };
    reader.readAsDataURL(file);
  } else {
    thumb = span("icon fw-attachment__icon--" + (file.type === "application/pdf" ? "pdf" : file.type === "text/csv" ? "csv" : "file"), "");
    thumb.setAttribute("aria-hidden", "true");
  }
  const size = file.size < 1024 ? file.size + " bytes" : file.size < 1048576 ? (file.size / 1024).toFixed(1) + " KB" : (file.size / 1048576).toFixed(1) + " MB";
  const li = element("li", "fw-attachment");
  li.fwFile = file;
  li.append(opener(thumb, span("name", file.name)), span("size", size));
  return li;
}

/// Opens the previewer on a tile of `list`; `deleting()` gives `remove(li)`, or false to disable
/// Delete (read-only, as the cell is when the tile opens); null leaves Delete out.
function watch(list, deleting) {
  list.addEventListener("click", async (event) => {
    const target = event.target.closest(".fw-attachment__open, .fw-attachment__link");
    if (!target) return;
    event.preventDefault();
    preview(Array.from(list.querySelectorAll("li:not([hidden])")), target.closest("li"), deleting && deleting());
  });
}

export async function enhance(root) {
  await stylesheet();
  root.querySelectorAll("ul[data-attachments]").forEach((list) => {
    if (list.closest(".fw-attachments") || list.fwTiles) return;
    list.fwTiles = true;
    count(list.closest(".fw-detail__row")?.querySelector("dt"), list);
    list.querySelectorAll("a").forEach((a) => { a.closest("li").dataset.url = a.href; });
    watch(list, null);
  });
  root.querySelectorAll("input[data-attachments]").forEach((input) => {
    if (input.fwTiles) return;
    input.fwTiles = true;
    const box = input.parentNode;
    const label = box.closest(".fw-cell")?.querySelector(".fw-label");
    let list = box.querySelector("ul");
    if (!list) {
      list = element("ul", "fw-attachments__list");
    }
    box.querySelector(".fw-attachments__add").after(list);
    box.classList.add("fw-attachments--tiles");
    for (const li of list.children) {
      li.prepend(opener(...li.querySelectorAll(".fw-attachment__thumb, .fw-attachment__icon, .fw-attachment__name")));
    }
    let files = new DataTransfer();
    const key = (file) => file.name + ":" + file.size + ":" + file.lastModified;
    const add = () => {
      const have = new Set(Array.from(files.files, key));
      for (const file of input.files) {
        if (have.has(key(file))) continue;
        files.items.add(file);
        list.append(tile(file));
      }
      input.files = files.files;
      count(label, list);
    };
    input.addEventListener("change", add);
    const remove = (li) => {
      if (li.fwFile) {
        const rest = new DataTransfer();
        for (const file of files.files) if (file !== li.fwFile) rest.items.add(file);
        files = rest;
        input.files = files.files;
        li.remove();
      } else {
        li.querySelector("input[type=checkbox]").checked = false;
        li.hidden = true;
      }
      count(label, list);
    };
    watch(list, () => !input.disabled && remove);
    add();
  });
}
