// The input of a long list's choice, shared by the list screen (drill-down.js) and the fills of
// a value help's row (value-fills.js).

/// The radio (or checkbox) of `value` in a long list, added hidden when the page does not hold
/// it yet, labelled `label`.
export function longListInput(control, value, label) {
  let input = Array.from(control.querySelectorAll("input[type=checkbox], input[type=radio]"))
    .find((candidate) => candidate.value === value);
  if (!input) {
    input = document.createElement("input");
    input.type = control.hasAttribute("data-multiple") ? "checkbox" : "radio";
    input.name = control.dataset.name;
    input.value = value;
    input.dataset.label = label;
    input.hidden = true;
    control.querySelector(".fw-longlist__options").append(input);
  }
  return input;
}
