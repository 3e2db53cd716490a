// Photos of the dice: the file/camera input, the live webcam (secure contexts only), and the
// photo shown with every die boxed and its value drawn: thrown dice open the value picker
// when tapped, kept dice and doubtful finds are marked.

import { el, fill } from "./dom.js";
import { num, t, tn } from "./i18n.js";
import { reducedPhoto } from "./shrink.js";

const $ = (id) => document.getElementById(id);
let stream = null;
let photoUrl = null;

function pct(value, whole) {
  return `${((100 * value) / whole).toFixed(3)}%`;
}

function boxStyle(reading, die) {
  const [x1, y1, x2, y2] = die.box;
  return `left:${pct(x1, reading.width)};top:${pct(y1, reading.height)};`
    + `width:${pct(x2 - x1, reading.width)};height:${pct(y2 - y1, reading.height)}`;
}

/**
 * One boxed die: a thrown die is a button opening its value picker (showing the value as
 * corrected so far), highlighted when the reader asks for it to be checked (``check``: read
 * with less than four chances in five); a kept die shows its kept value; a doubtful find, or
 * any die of a reading that made no roll, is drawn dashed with the value read, not tappable.
 */
function dieBox(reading, die, values, onTap) {
  const style = boxStyle(reading, die);
  const position = die.position ?? null;
  if (die.role === "thrown") {
    const value = values[position] ?? die.value;
    const low = Boolean(die.check);
    return el("button", {
      type: "button", class: `photo-die${low ? " low" : ""}`, style,
      dataset: { position }, "aria-label": t("die", { n: position + 1, value }),
      "aria-controls": "die-picker", "aria-expanded": "false",
      on: { click: (event) => onTap(position, event.currentTarget) },
    }, el("span", { class: "photo-value", text: String(value) }));
  }
  const kept = die.role === "kept";
  const value = kept ? values[position] ?? die.value : die.value;
  return el("span", {
    class: `photo-die ${kept ? "kept" : "doubtful"}`, style, role: "img",
    dataset: { position: kept ? position : "" },
    "aria-label": kept ? t("photo_kept", { n: position + 1, value })
      : t("photo_doubtful", { value }),
  }, el("span", { class: "photo-value", text: kept ? String(value) : `${value}?` }));
}

function caption(reading) {
  const dice = reading.dice;
  if (!dice.some((d) => d.role)) return ""; // no roll was made: the message says why
  // Every die boxed is counted as found; the dotted ones are said not to count below.
  const parts = [tn("found_dice", dice.length, { n: num(dice.length) })];
  if (dice.some((d) => d.role === "kept")) parts.push(t("photo_kept_note"));
  if (dice.some((d) => d.role === "doubtful")) parts.push(t("photo_doubtful_note"));
  if (dice.some((d) => d.role === "thrown" && d.check)) {
    parts.push(t("low_confidence"));
  }
  return parts.join(" ");
}

/**
 * Show the photo *blob* with the boxes of *reading*; *values* are the five dice as set on
 * screen (each found die names its ``position`` among them); onTap(position, box) is called
 * when a thrown die is tapped. A null reading shows the photo only.
 */
export function showPhoto(blob, reading, values, onTap) {
  if (blob) {
    if (photoUrl) URL.revokeObjectURL(photoUrl);
    photoUrl = URL.createObjectURL(blob);
    $("photo-img").src = photoUrl;
  }
  $("photo-img").alt = t("photo_alt");
  $("photo").hidden = false;
  fill($("photo-boxes"), (reading ? reading.dice : []).map((die) =>
    dieBox(reading, die, values, onTap)));
  $("photo-caption").textContent = reading ? caption(reading) : "";
}

/** Hide the photo (a new turn). */
export function hidePhoto() {
  $("photo").hidden = true;
  fill($("photo-boxes"));
}

/**
 * Open the webcam (the back camera on a phone) in the preview; return true when it shows.
 * An open webcam is reused.
 */
export async function startWebcam() {
  if (stream) return true;
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      video: { facingMode: "environment", width: { ideal: 1280 } }, audio: false });
  } catch {
    return false;
  }
  const video = $("webcam-video");
  video.srcObject = stream;
  await video.play().catch(() => {});
  $("webcam").hidden = false;
  $("webcam-start").hidden = true;
  return true;
}

/** Close the webcam and release the camera. */
export function stopWebcam() {
  if (stream) stream.getTracks().forEach((track) => track.stop());
  stream = null;
  $("webcam-video").srcObject = null;
  $("webcam").hidden = true;
  $("webcam-start").hidden = false;
}

/**
 * Return a JPEG blob of the webcam's picture now, at most *width* px wide (null before the
 * first picture).
 */
export function captureFrame(width = Infinity, quality = 0.9) {
  const video = $("webcam-video");
  if (!video.videoWidth) return Promise.resolve(null);
  const scale = Math.min(1, width / video.videoWidth);
  const canvas = el("canvas", { width: Math.round(video.videoWidth * scale),
    height: Math.round(video.videoHeight * scale) });
  canvas.getContext("2d").drawImage(video, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", quality));
}

/**
 * Wire the photo input and, where the page is a secure context, the webcam.
 * onPhoto(blob, filename) receives each photo taken, chosen or captured (a big one reduced:
 * shrink.js).
 * onError(message) is called when the webcam cannot be opened.
 */
export function setupPhoto(onPhoto, onError) {
  const input = $("photo-input");
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    input.value = "";
    if (!file) return;
    const photo = await reducedPhoto(file);
    onPhoto(photo, photo.name || "photo.jpg");
  });
  const canWebcam = window.isSecureContext && navigator.mediaDevices?.getUserMedia;
  $("webcam-start").hidden = !canWebcam;
  if (!canWebcam) return;
  $("webcam-start").addEventListener("click", async () => {
    if (!(await startWebcam())) onError(t("webcam_error"));
  });
  $("webcam-stop").addEventListener("click", stopWebcam);
  $("webcam-capture").addEventListener("click", async () => {
    const blob = await captureFrame();
    if (blob) onPhoto(blob, "webcam.jpg");
  });
}
