// The site's navigation on a narrow screen: one line (the name and a Menu button) that opens the
// list of links. On a wide screen the button is not shown and the links are always there
// (site.css); the button only toggles the class that shows them.
const button = document.getElementById("menu-button");
const menu = document.getElementById("site-menu");
if (button && menu) {
  button.addEventListener("click", () => {
    const open = button.getAttribute("aria-expanded") !== "true";
    button.setAttribute("aria-expanded", String(open));
    menu.classList.toggle("open", open);
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && menu.classList.contains("open")) {
      button.setAttribute("aria-expanded", "false");
      menu.classList.remove("open");
      button.focus();
    }
  });
}
