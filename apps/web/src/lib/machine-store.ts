import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import {
  BARCODE_DEFAULTS,
  KIOSK_SESSION_TIMEOUT_DEFAULT_MINUTES,
  LABEL_COPIES_DEFAULT,
  SCREEN_SAVER_DEFAULT_MINUTES,
  WORKSTATION_ID_PREFIX,
  WORKSTATION_ID_RANDOM_BELOW,
  type BarcodeFormat,
} from '@floorhand/contract/constants';
import type { Language } from '@floorhand/contract/i18n';
import { persistedStorage } from './safe-storage.ts';

export interface CameraChoice {
  deviceId: string;
  kind: string;
  label: string;
  size?: string;
  resolution?: string;
}

export interface MachineSettings {
  /**
   * `secret`: what the server gave this device when an admin authorised it here or paired it; sent
   * with the id at login. Without it the id is not authorised (docs/admin.md, Workstations).
   */
  workstation: { id: string; timeclockOnly: boolean; kioskOnly: boolean; secret?: string };
  /** `wedgePrefix`: what the scanner sends before each code, when it is set to (docs/scanning.md); '' for none. */
  barcode: {
    cam: CameraChoice | null;
    formats: BarcodeFormat[];
    beep: boolean;
    vibrate: boolean;
    fps: number;
    timeoutSecs: number;
    wedgePrefix: string;
  };
  timeclockCam: CameraChoice | null;
  photoCam: CameraChoice | null;
  /** Minutes of inactivity before the screen saver shows. */
  screenSaver: number;
  /** Minutes before a kiosk session ends. */
  kioskSessionTimeout: number;
  /**
   * The spec's labelPrinter (agent list, copies), plus the choice made at a print button: the printer
   * (`agentId/printer`, one of the agents' printers) and the stock label template. Both optional: without
   * them the first printer of the agents and the kind's default template (docs/labels.md).
   */
  labelPrinter: { agents: string[]; copies: number; printerId?: string; stockTemplateId?: string };
  /**
   * The language this workstation shows, whoever is logged in (a kiosk set to Spanish); null leaves it
   * to the account's choice and the browser (lib/language.ts).
   */
  language: Language | null;
}

/** Workstation id default: a fixed prefix plus a random number below 10000. */
export const defaultWorkstationId = (random = Math.random): string =>
  `${WORKSTATION_ID_PREFIX}${String(Math.floor(random() * WORKSTATION_ID_RANDOM_BELOW)).padStart(4, '0')}`;

export const machineDefaults = (): MachineSettings => ({
  workstation: { id: defaultWorkstationId(), timeclockOnly: false, kioskOnly: false },
  barcode: {
    cam: null,
    formats: [...BARCODE_DEFAULTS.formats],
    beep: BARCODE_DEFAULTS.beep,
    vibrate: BARCODE_DEFAULTS.vibrate,
    fps: BARCODE_DEFAULTS.fps,
    timeoutSecs: BARCODE_DEFAULTS.timeoutSecs,
    wedgePrefix: '',
  },
  timeclockCam: null,
  photoCam: null,
  screenSaver: SCREEN_SAVER_DEFAULT_MINUTES,
  kioskSessionTimeout: KIOSK_SESSION_TIMEOUT_DEFAULT_MINUTES,
  labelPrinter: { agents: [], copies: LABEL_COPIES_DEFAULT },
  language: null,
});

export const useMachineStore = create<MachineSettings & { save(patch: Partial<MachineSettings>): void }>()(
  persist(
    (set) => ({
      ...machineDefaults(),
      save: (patch) => set(patch),
    }),
    {
      name: 'machine_settings',
      storage: persistedStorage,
      // Settings saved by an older version gain the fields added since.
      merge: (persisted, current) => {
        const p = (persisted ?? {}) as Partial<MachineSettings>;
        return {
          ...current,
          ...p,
          workstation: { ...current.workstation, ...p.workstation },
          barcode: { ...current.barcode, ...p.barcode },
          labelPrinter: { ...current.labelPrinter, ...p.labelPrinter },
        };
      },
    },
  ),
);

/**
 * The settings are written on the first load, not only on the first Save: the generated workstation
 * id must survive reloads and browser restarts (else every load is a new id on the Workstations list).
 * Hydration from localStorage is synchronous, so it has finished by the time this runs.
 */
export function persistMachineSettings(): void {
  const write = () => useMachineStore.setState({});
  if (useMachineStore.persist.hasHydrated()) write();
  else useMachineStore.persist.onFinishHydration(write);
}
persistMachineSettings();
