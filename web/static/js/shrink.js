// Photos reduced in the browser before they are sent: a phone camera's photo of tens of
// megapixels (often more megabytes than the server takes) is drawn upright, as its EXIF
// orientation says, at most LONGEST_SIDE px on its longest side and sent as a JPEG of a
// megabyte or two. The server reads dice at 1000 px, so this loses nothing it uses.

const LONGEST_SIDE = 2000;
const QUALITY = 0.9;
// A photo within LONGEST_SIDE and this size is sent as it is.
const LIGHT_BYTES = 4 * 1024 * 1024;

function jpegName(name) {
  return `${(name || "photo").replace(/\.[^./]*$/, "")}.jpg`;
}

/** Return *bitmap* drawn on a canvas scaled by *scale*, as a JPEG blob (null on failure). */
function encode(bitmap, scale) {
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  const context = canvas.getContext("2d");
  context.imageSmoothingQuality = "high";
  context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", QUALITY));
}

/**
 * Return the photo to send for *file*: a JPEG File (named as *file*, ending .jpg), upright
 * and at most LONGEST_SIDE px on its longest side, when *file* is larger than that or heavier
 * than LIGHT_BYTES; else *file* itself. A file the browser cannot decode is returned as it is,
 * for the server to say what is wrong with it.
 */
export async function reducedPhoto(file) {
  let bitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    return file;
  }
  try {
    const scale = Math.min(1, LONGEST_SIDE / Math.max(bitmap.width, bitmap.height));
    if (scale === 1 && file.size <= LIGHT_BYTES) return file;
    const blob = await encode(bitmap, scale);
    return blob ? new File([blob], jpegName(file.name), { type: "image/jpeg" }) : file;
  } finally {
    bitmap.close();
  }
}
