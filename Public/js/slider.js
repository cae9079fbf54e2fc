// Slider: show the number field beside the range and keep both in step. Only the range is
// named, so the submitted value is unambiguous.
export function enhance(root) {
  root.querySelectorAll("[data-slider]").forEach((slider) => {
    const range = slider.querySelector(".fw-slider__range");
    const pair = slider.querySelector(".fw-slider__pair");
    const number = slider.querySelector(".fw-slider__number");
    if (!range || !pair || !number) return;
    pair.hidden = false;
    number.value = range.value;
    range.addEventListener("input", () => { number.value = range.value; });
    number.addEventListener("input", () => {
      if (number.value !== "" && !isNaN(Number(number.value))) range.value = number.value;
    });
    number.addEventListener("change", () => { number.value = range.value; });
  });
}
