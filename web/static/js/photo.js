// Photos of the dice: the file/camera input, the live webcam (secure contexts only), and the
// photo shown with every die boxed and its value drawn; tapping a boxed die corrects its value.

import { el, fill } from "./dom.js";
import { t } from "./i18n.js";

const LOW_CONFIDENCE = 0.6;
const $ = (id) => document.getElementById(id);
let stream = null;
let photoUrl = null;

function pct(value, whole) {
  return `${((100 * value) / whole).toFixed(3)}%`;
}

function dieBox(reading, die, index, value, onTap) {
  const [x1, y1, x2, y2] = die.box;
  const low = die.confidence < LOW_CONFIDENCE;
  return el("button", {
    type: "button", class: `photo-die${low ? " low" : ""}`, dataset: { index },
    style: `left:${pct(x1, reading.width)};top:${pct(y1, reading.height)};`
      + `width:${pct(x2 - x1, reading.width)};height:${pct(y2 - y1, reading.height)}`,
    "aria-label": t("die", { n: index + 1, value }),
    on: { click: () => onTap(index) },
  }, el("span", { class: "photo-value", text: String(value) }));
}

/**
 * Show the photo *blob* with the boxes of *reading*; *values* are the dice as corrected so far
 * (reading order); onTap(i) is called when die i is tapped. A null reading shows the photo only.
 */
export function showPhoto(blob, reading, values, onTap) {
  if (blob) {
    if (photoUrl) URL.revokeObjectURL(photoUrl);
    photoUrl = URL.createObjectURL(blob);
    $("photo-img").src = photoUrl;
  }
  $("photo-img").alt = t("photo_alt");
  $("photo").hidden = false;
  const dice = reading ? reading.dice : [];
  const five = dice.length === 5;
  // Only a reading of five dice became the roll; other readings are shown as read.
  fill($("photo-boxes"), dice.map((die, i) =>
    dieBox(reading, die, i, five ? values[i] ?? die.value : die.value, five ? onTap : () => {})));
  const low = dice.some((d) => d.confidence < LOW_CONFIDENCE);
  const caption = [five ? t("found_dice", { n: dice.length }) : t("need_five", { n: dice.length })];
  if (low) caption.push(t("low_confidence"));
  $("photo-caption").textContent = reading ? caption.join(" ") : "";
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
  return true;
}

/** Close the webcam and release the camera. */
export function stopWebcam() {
  if (stream) stream.getTracks().forEach((track) => track.stop());
  stream = null;
  $("webcam-video").srcObject = null;
  $("webcam").hidden = true;
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
 * onPhoto(blob, filename) receives each photo taken, chosen or captured.
 * onError(message) is called when the webcam cannot be opened.
 */
export function setupPhoto(onPhoto, onError) {
  const input = $("photo-input");
  input.addEventListener("change", () => {
    const file = input.files && input.files[0];
    if (file) onPhoto(file, file.name || "photo.jpg");
    input.value = "";
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
