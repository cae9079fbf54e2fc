// Admin import: files dropped on the zone join the file input (so the form posts them as if
// chosen), and the chosen names are listed in order, since that order is the import's order.
import { element } from "./element.js";

export function enhance(root) {
  root.querySelectorAll("[data-dropzone]").forEach((zone) => {
    const input = zone.querySelector("input[type=file]");
    if (!input || typeof DataTransfer === "undefined") return;
    const list = element("ol", "fw-dropzone__files");
    list.setAttribute("aria-live", "polite");
    zone.appendChild(list);
    const show = () => {
      list.textContent = "";
      for (const file of input.files || []) {
        const item = document.createElement("li");
        item.textContent = file.name;
        list.appendChild(item);
      }
    };
    input.addEventListener("change", show);
    for (const type of ["dragenter", "dragover"]) {
      zone.addEventListener(type, (event) => {
        event.preventDefault();
        zone.classList.add("fw-dropzone--over");
      });
    }
    for (const type of ["dragleave", "drop"]) {
      zone.addEventListener(type, () => zone.classList.remove("fw-dropzone--over"));
    }
    zone.addEventListener("drop", (event) => {
      event.preventDefault();
      const all = new DataTransfer();
      for (const file of input.files || []) all.items.add(file);
      for (const file of event.dataTransfer.files) all.items.add(file);
      input.files = all.files;
      show();
    });
  });
}
