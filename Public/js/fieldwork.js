// Fieldwork's enhancements: one ES module per behaviour, loaded only when the page has what it
// enhances (found by its data- attribute), under a root: the page, or a view loaded into a
// dialog. Every page works without them.
const behaviours = [
  ["[data-dropzone]", "./dropzone.js"],
  ["[data-slider]", "./slider.js"],
  ["[data-format]", "./grouped-format.js"],
  ["[data-attachments]", "./attachment-tiles.js"],
  ["[data-clear]", "./clear-button.js"],
  ["[data-choices]", "./choice-keys.js"],
  ["[data-drilldown]", "./drill-down.js"],
  ["[data-remote]", "./value-fills.js"],
  ["[data-unsaved]", "./unsaved-changes.js"],
  ["[data-list]", "./items.js"],
  ["[data-rules]", "./rules.js"],
  ["[data-modal]", "./modal.js"],
  ["[data-error-summary]", "./error-focus.js"],
];

/// Enhances everything under `root`, in the order above (focus last), waiting for any module
/// that enhances asynchronously.
export async function enhance(root) {
  const wanted = behaviours.filter(([hook]) => root.querySelector(hook));
  const modules = await Promise.all(wanted.map(([, path]) => import(path)));
  for (const module of modules) await module.enhance(root);
}

// The page says when it is enhanced (tests wait for it).
enhance(document).then(() => document.documentElement.setAttribute("data-enhanced", ""));
