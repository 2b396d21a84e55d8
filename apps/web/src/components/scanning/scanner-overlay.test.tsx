import { useEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, renderHook, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import '../../lib/i18n.ts';
import { useDialogStore } from '../dialogs/dialog-store.ts';
import { useMachineStore } from '../../lib/machine-store.ts';
import { playBeep, playErrorBuzz, vibrate } from '../../lib/scanning/beep.ts';
import { scanImageFile } from '../../lib/scanning/decoder.ts';
import { scanBus, type Scan } from '../../lib/scanning/scan-bus.ts';
import { ScanInput } from './scan-input.tsx';
import { ScannerOverlay } from './scanner-overlay.tsx';
import { NO_BARCODE_IN_IMAGE } from '../../lib/scanning/scanner-controller.ts';
import { closeScanner, openScanner, useScannerStore } from '../../lib/scanning/scanner-store.ts';
import { CAMERA_SECURE_CONTEXT_ONLY } from '../../lib/scanning/scanner-messages.ts';
import { useScans } from '../../lib/scanning/use-scans.ts';

vi.mock('../../lib/scanning/beep.ts', () => ({
  playBeep: vi.fn(() => true),
  playErrorBuzz: vi.fn(() => true),
  vibrate: vi.fn(() => true),
}));
vi.mock('../../lib/scanning/decoder.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/scanning/decoder.ts')>()),
  scanImageFile: vi.fn(),
}));

const CAM = { deviceId: 'cam-1', kind: 'videoinput', label: 'Back camera' };
const getUserMedia = vi.fn();

/** Collects what the screen would receive while it is mounted. */
function listen(options?: { allowRepeats?: boolean }) {
  const scans: Scan[] = [];
  const hook = renderHook(() => useScans((s) => scans.push(s), options));
  return { scans, unmount: hook.unmount };
}
const flush = () => act(async () => await new Promise((r) => setTimeout(r, 0)));
const overlay = () => screen.getByTestId('scanner-overlay');
const renderOverlay = () => render(<ScannerOverlay />, { wrapper: ({ children }) => <MantineProvider>{children}</MantineProvider> });

beforeEach(() => {
  vi.stubGlobal('isSecureContext', true);
  Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia }, configurable: true });
  getUserMedia.mockReset().mockRejectedValue(Object.assign(new Error('Permission denied'), { name: 'NotAllowedError' }));
  useMachineStore.setState({ barcode: { ...useMachineStore.getState().barcode, cam: null, beep: true, vibrate: true, timeoutSecs: 20 } });
});
afterEach(() => {
  act(() => {
    closeScanner();
    useDialogStore.getState().closeAll();
  });
  cleanup();
  vi.clearAllMocks();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('ScannerOverlay', () => {
  it('opens for a tap that lands between its first render and its effects (the first tap after login)', () => {
    // Effects run in tree order: the opener's runs after both rendered closed, before the overlay's.
    function TapBeforeEffects() {
      useEffect(() => openScanner(), []);
      return null;
    }
    render(
      <>
        <TapBeforeEffects />
        <ScannerOverlay />
      </>,
      { wrapper: ({ children }) => <MantineProvider>{children}</MantineProvider> },
    );
    expect(useScannerStore.getState().open).toBe(true);
    expect(overlay().dataset.state).toBe('open');
  });

  it('is closed until opened, and sits above the page at z-index 7000', () => {
    renderOverlay();
    expect(overlay()).toHaveProperty('dataset.state', 'closed');
    act(() => openScanner());
    expect(overlay().dataset.state).toBe('open');
    expect(overlay().style.zIndex).toBe('7000');
  });

  it('shows Camera missing (not configured) when no camera is chosen', async () => {
    renderOverlay();
    act(() => openScanner());
    await flush();
    expect(useDialogStore.getState().open.map((d) => d.spec)).toEqual([
      { kind: 'cameraMissing', reason: 'notConfigured', imageFile: true },
    ]);
    expect(screen.getByTestId('scanner-message').textContent).toBe('No camera has been configured for this device');
    expect(getUserMedia).not.toHaveBeenCalled();
  });

  it('goes from Camera missing straight to the image file picker', async () => {
    renderOverlay();
    act(() => openScanner());
    await flush();
    const picked = vi.spyOn(screen.getByTestId('scanner-file-input'), 'click').mockImplementation(() => undefined);
    act(() => useDialogStore.getState().close(useDialogStore.getState().open[0]!.id, 'pos'));
    await flush();
    expect(picked).toHaveBeenCalledOnce();
    expect(overlay().dataset.state).toBe('open');
  });

  it('shows Camera missing (inaccessible) when the chosen camera is refused', async () => {
    useMachineStore.setState({ barcode: { ...useMachineStore.getState().barcode, cam: CAM } });
    renderOverlay();
    act(() => openScanner());
    await flush();
    expect(getUserMedia).toHaveBeenCalledWith({
      audio: false,
      video: { deviceId: { exact: 'cam-1' }, width: { ideal: 640 }, height: { ideal: 480 } },
    });
    expect(useDialogStore.getState().open.map((d) => d.spec)).toEqual([{ kind: 'cameraMissing', reason: 'inaccessible', imageFile: true }]);
  });

  it('streams the chosen camera, pauses while the page is hidden, and stops the camera on close', async () => {
    const track = { stop: vi.fn(), getCapabilities: () => ({}), getSettings: () => ({}) };
    getUserMedia.mockResolvedValue({ getTracks: () => [track], getVideoTracks: () => [track] });
    useMachineStore.setState({ barcode: { ...useMachineStore.getState().barcode, cam: CAM } });
    renderOverlay();
    act(() => openScanner());
    await flush();
    expect(overlay().dataset.state).toBe('scanning');
    expect(screen.queryByTestId('scanner-torch')).toBeNull();
    const hidden = vi.spyOn(document, 'hidden', 'get').mockReturnValue(true);
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    expect(screen.getByTestId('scanner-message').textContent).toBe('Scanner paused');
    hidden.mockReturnValue(false);
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    expect(screen.queryByTestId('scanner-message')).toBeNull();
    fireEvent.click(screen.getByTestId('scanner-close'));
    expect(track.stop).toHaveBeenCalled();
    expect(overlay().dataset.state).toBe('closed');
  });

  it('offers the torch where the camera track supports it', async () => {
    const track = {
      stop: vi.fn(),
      getCapabilities: () => ({ torch: true }),
      getSettings: () => ({}),
      applyConstraints: vi.fn(async () => undefined),
    };
    getUserMedia.mockResolvedValue({ getTracks: () => [track], getVideoTracks: () => [track] });
    useMachineStore.setState({ barcode: { ...useMachineStore.getState().barcode, cam: CAM } });
    renderOverlay();
    act(() => openScanner());
    await flush();
    fireEvent.click(screen.getByTestId('scanner-torch'));
    await flush();
    expect(track.applyConstraints).toHaveBeenCalledWith({ advanced: [{ torch: true }] });
    expect(screen.getByTestId('scanner-torch').textContent).toBe('Light off');
    expect(overlay().dataset.state).toBe('scanning');
  });

  it('says the camera needs a secure context outside https and localhost', async () => {
    vi.stubGlobal('isSecureContext', false);
    renderOverlay();
    act(() => openScanner());
    await flush();
    expect(screen.getByTestId('scanner-message').textContent).toBe(CAMERA_SECURE_CONTEXT_ONLY);
    expect(useDialogStore.getState().open).toEqual([]);
  });

  it('closes on a tap, but not on a tap of its own buttons', async () => {
    renderOverlay();
    act(() => openScanner());
    fireEvent.click(screen.getByTestId('scanner-file'));
    expect(overlay().dataset.state).toBe('open');
    fireEvent.click(overlay());
    expect(overlay().dataset.state).toBe('closed');
    expect(useScannerStore.getState().open).toBe(false);
  });

  it('closes after the timeout with the error buzz', async () => {
    vi.useFakeTimers();
    useMachineStore.setState({ barcode: { ...useMachineStore.getState().barcode, timeoutSecs: 7 } });
    renderOverlay();
    act(() => openScanner());
    act(() => vi.advanceTimersByTime(6999));
    expect(overlay().dataset.state).toBe('open');
    act(() => vi.advanceTimersByTime(1));
    expect(overlay().dataset.state).toBe('closed');
    expect(playErrorBuzz).toHaveBeenCalledOnce();
    expect(playBeep).not.toHaveBeenCalled();
  });

  it('publishes an image file read with source file, beeps, vibrates 350 ms and closes', async () => {
    vi.mocked(scanImageFile).mockResolvedValue({ found: { text: 'LOC-A-17', format: 'CODE_128' } });
    const screenScans = listen();
    renderOverlay();
    act(() => openScanner());
    const file = new File(['png'], 'label.png', { type: 'image/png' });
    fireEvent.change(screen.getByTestId('scanner-file-input'), { target: { files: [file] } });
    await flush();
    expect(screenScans.scans).toEqual([{ text: 'LOC-A-17', format: 'CODE_128', source: 'file' }]);
    expect(playBeep).toHaveBeenCalledOnce();
    expect(vibrate).toHaveBeenCalledWith(350);
    expect(overlay().dataset.state).toBe('closed');
    screenScans.unmount();
  });

  it('stays open in continuous mode and says when an image holds no barcode', async () => {
    vi.mocked(scanImageFile)
      .mockResolvedValueOnce({ none: true })
      .mockResolvedValueOnce({ switchedOff: 'EAN_13' })
      .mockResolvedValueOnce({ found: { text: 'A1', format: 'QR_CODE' } });
    useMachineStore.setState({ barcode: { ...useMachineStore.getState().barcode, beep: false, vibrate: false } });
    const screenScans = listen();
    renderOverlay();
    act(() => openScanner({ continuous: true }));
    const input = screen.getByTestId('scanner-file-input');
    fireEvent.change(input, { target: { files: [new File(['x'], 'blank.png')] } });
    await flush();
    expect(screen.getByTestId('scanner-message').textContent).toBe(NO_BARCODE_IN_IMAGE);
    fireEvent.change(input, { target: { files: [new File(['x'], 'ean.png')] } });
    await flush();
    expect(screen.getByTestId('scanner-message').textContent).toBe(
      'The image has a barcode of format EAN_13, but EAN_13 is switched off in App Settings (Barcode formats).',
    );
    expect(screenScans.scans).toEqual([]);
    fireEvent.change(input, { target: { files: [new File(['x'], 'qr.png')] } });
    await flush();
    expect(screenScans.scans.map((s) => s.text)).toEqual(['A1']);
    expect(overlay().dataset.state).not.toBe('closed');
    expect(screen.getByTestId('scanner-reads').textContent).toBe('Reads: 1');
    expect(playBeep).not.toHaveBeenCalled();
    screenScans.unmount();
  });
});

describe('ScanInput', () => {
  const renderInput = () =>
    render(<ScanInput aria-label="Scan" />, { wrapper: ({ children }) => <MantineProvider>{children}</MantineProvider> });

  it('publishes its text with source input on Enter, once, and clears', async () => {
    const screenScans = listen();
    renderInput();
    const field = screen.getByLabelText('Scan') as HTMLInputElement;
    fireEvent.change(field, { target: { value: ' STK-42 ' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    await flush();
    expect(screenScans.scans).toEqual([{ text: 'STK-42', format: 'UNKNOWN', source: 'input' }]);
    expect(field.value).toBe('');
    fireEvent.keyDown(field, { key: 'Enter' });
    await flush();
    expect(screenScans.scans).toHaveLength(1);
    screenScans.unmount();
  });

  it('takes a Tab at scanner speed as the end of a scan, but lets a person tab away', async () => {
    const screenScans = listen();
    renderInput();
    const field = screen.getByLabelText('Scan') as HTMLInputElement;
    fireEvent.change(field, { target: { value: 'AB' } });
    fireEvent.keyDown(field, { key: 'A' });
    fireEvent.keyDown(field, { key: 'B' });
    // fireEvent returns false when the default action (moving the focus) was prevented.
    expect(fireEvent.keyDown(field, { key: 'Tab' })).toBe(false);
    fireEvent.change(field, { target: { value: 'slow' } });
    fireEvent.keyDown(field, { key: 'w' });
    await new Promise((r) => setTimeout(r, 80));
    expect(fireEvent.keyDown(field, { key: 'Tab' })).toBe(true);
    await flush();
    expect(screenScans.scans.map((s) => s.text)).toEqual(['AB']);
    screenScans.unmount();
  });

  it('opens the camera scanner from its button', () => {
    renderInput();
    fireEvent.click(screen.getByTestId('scan-input-camera'));
    expect(useScannerStore.getState()).toMatchObject({ open: true, continuous: false });
  });
});

describe('useScans', () => {
  it('delivers while mounted, to the newest screen, and stops on unmount', async () => {
    const below = listen();
    const top = listen();
    act(() => scanBus.publish({ text: 'ONE', format: 'UNKNOWN', source: 'wedge' }));
    top.unmount();
    act(() => scanBus.publish({ text: 'TWO', format: 'UNKNOWN', source: 'wedge' }));
    below.unmount();
    expect(top.scans.map((s) => s.text)).toEqual(['ONE']);
    expect(below.scans.map((s) => s.text)).toEqual(['TWO']);
  });
});
