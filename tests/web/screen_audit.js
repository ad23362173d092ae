/* The screen check of screen_audit.py: controls under the minimum, text running over. */
(minimum) => {
  const seen = (node) => {
    const box = node.getBoundingClientRect();
    const style = getComputedStyle(node);
    return box.width > 0 && box.height > 0 && style.visibility !== "hidden" && style.display !== "none";
  };
  const small = [];
  for (const node of document.querySelectorAll("button, input, select, textarea, summary, [role=button]")) {
    if (!seen(node) || node.closest("[hidden], dialog:not([open])")) continue;
    if (node.type === "hidden" || (node.type === "file" && node.hidden)) continue;
    let box = node.getBoundingClientRect();
    if ((node.type === "checkbox" || node.type === "radio") && node.closest("label")) {
      box = node.closest("label").getBoundingClientRect();  /* the label is the tap target */
    }
    if (box.width < minimum || box.height < minimum) {
      small.push(`${node.tagName.toLowerCase()}#${node.id || node.dataset.testid || ""} ` +
                 `${Math.round(box.width)}x${Math.round(box.height)} "${(node.innerText || node.value || "").slice(0, 30)}"`);
    }
  }
  const overflowing = [];
  for (const node of document.body.querySelectorAll("*")) {
    if (!seen(node) || !node.textContent.trim() || node.children.length > 0 && node.tagName === "DIV") continue;
    const style = getComputedStyle(node);
    if (["auto", "scroll"].includes(style.overflowX) || node.closest(".sheet-scroll, dialog:not([open])")) continue;
    if (node.scrollWidth > node.clientWidth + 1 && node.clientWidth > 0 && style.display !== "inline") {
      overflowing.push(`${node.tagName.toLowerCase()}#${node.id || node.dataset.testid || ""} "${node.textContent.trim().slice(0, 40)}"`);
    }
  }
  if (document.documentElement.scrollWidth > window.innerWidth + 1) overflowing.push("the page scrolls sideways");
  return { small, overflowing };
}
