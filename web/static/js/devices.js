// The owner's list of the devices that joined the game: each one's browser and when it
// joined, and a button that removes it (its cookie and live stream stop at once).

import { api } from "./api.js";
import { el, fill, say } from "./dom.js";
import { t } from "./i18n.js";

function when(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso || "";
  return date.toLocaleString(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" });
}

function deviceItem(gameId, device, reload) {
  const name = device.label || t("device_unknown");
  const role = device.this ? t("device_this") : device.role === "owner" ? t("device_owner") : null;
  const remove = device.this ? null : el("button", { type: "button", class: "remove-device",
    text: t("remove_device"), "aria-label": t("remove_device_named", { name }) });
  remove?.addEventListener("click", async () => {
    remove.disabled = true;
    try {
      await api.removeDevice(gameId, device.id);
      say(t("device_removed", { name }), "ok");
      await reload();
    } catch (error) {
      remove.disabled = false;
      say(error.message, "error");
    }
  });
  return el("li", { class: "device", dataset: { device: device.id } },
    el("span", { class: "device-name", text: name }),
    role ? el("span", { class: "device-role", text: role }) : null,
    el("span", { class: "device-when", text: t("device_joined", { when: when(device.joined_at) }) }),
    remove);
}

/** Fill the owner's Devices panel (#devices) each time it is opened. */
export function setupDevices(gameId) {
  const panel = document.getElementById("devices");
  if (!panel) return;
  const list = document.getElementById("device-list");
  const reload = async () => {
    try {
      const { devices } = await api.devices(gameId);
      fill(list, devices.map((device) => deviceItem(gameId, device, reload)));
    } catch (error) {
      say(error.message, "error");
    }
  };
  panel.addEventListener("toggle", () => { if (panel.open) reload(); });
}
