/* "Share a picture" (a[data-share] on the sheet): the phone's share sheet with the sheet's
   picture, where the browser can share files (Web Share); elsewhere the link does what it
   does without JavaScript, downloading the picture. */

function download(blob, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

function canShareFiles() {
  if (!navigator.canShare || !navigator.share || !window.File) return false;
  try {
    return navigator.canShare({ files: [new File([""], "sheet.png", { type: "image/png" })] });
  } catch (e) {
    return false;
  }
}

export function startShare() {
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a[data-share]");
    if (!link || !canShareFiles()) return;
    event.preventDefault();
    const name = link.getAttribute("download") || "scorekeeper.png";
    fetch(link.href, { credentials: "same-origin" })
      .then((response) => {
        if (!response.ok) throw new Error("no picture");
        return response.blob();
      })
      .then((blob) => {
        const file = new File([blob], name, { type: "image/png" });
        // Refused (the tap's permission ran out while the picture came): downloaded instead.
        // Closed by the player: nothing more.
        return navigator.share({ files: [file], title: link.dataset.share }).catch((error) => {
          if (error && error.name !== "AbortError") download(blob, name);
        });
      })
      .catch(() => {
        location.href = link.href;
      });
  });
}
