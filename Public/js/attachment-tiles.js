// Attachments: the tiles and the previewer (attachment-files.js) load when there are files to
// show: at once for files already received (a refused submission's, an edited or shown
// object's), else on the first choice. Until then the cell is the input with its "+".
export function enhance(root) {
  const load = () => import("./attachment-files.js").then((files) => files.enhance(root));
  if (root.querySelector("ul[data-attachments]")) return load();
  root.querySelectorAll("input[data-attachments]").forEach((input) => input.addEventListener("change", load, { once: true }));
}
