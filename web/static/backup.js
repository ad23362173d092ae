/* The set-up page's backup: restore a file chosen, saying what came back or why not. */
"use strict";

(function () {
  const form = document.getElementById("restore-form");
  const message = document.getElementById("restore-message");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = document.getElementById("restore-file").files[0];
    message.className = "";
    if (!file) { message.textContent = "Choose the backup file first, then tap Restore."; return; }
    const data = new FormData();
    data.append("backup", file, file.name);
    const result = await apiForm("/api/backup/restore", data);
    if (!result.ok) {
      message.className = "error";
      const text = result.data.error || "the backup could not be restored";
      message.textContent = text.charAt(0).toUpperCase() + text.slice(1) + ". Nothing was changed.";
      return;
    }
    const added = result.data.added.length;
    const kept = result.data.already_here.length;
    message.textContent = `${added} ${added === 1 ? "game" : "games"} restored` +
      (kept ? `; ${kept} already here, left as they were.` : ".");
  });
})();
