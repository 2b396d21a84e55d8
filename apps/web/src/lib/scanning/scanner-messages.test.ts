import { describe, expect, it } from 'vitest';
import {
  CAMERA_DEVICES_QUERY_FAILED,
  CAMERA_SECURE_CONTEXT_ONLY,
  CAMERA_STREAMING_NOT_SUPPORTED,
  cameraMissingDialog,
  cameraPreflight,
  describeError,
  isCameraInaccessibleError,
  qrCodeParseError,
  SCANNER_PAUSED,
  userMediaError,
} from './scanner-messages.ts';

describe('scanner messages', () => {
  it('words the fixed scanner messages of the spec', () => {
    expect(CAMERA_SECURE_CONTEXT_ONLY).toMatch(/secure context \(https or localhost\)/);
    expect(CAMERA_STREAMING_NOT_SUPPORTED).toMatch(/streaming is not supported by this browser/);
    expect(CAMERA_DEVICES_QUERY_FAILED).toMatch(/^Unable to query supported devices, unknown error/);
    expect(SCANNER_PAUSED).toBe('Scanner paused');
  });

  it('appends the error to the user-media and parse messages', () => {
    expect(userMediaError(new DOMException('Permission denied', 'NotAllowedError'))).toBe(
      'Error getting user media: NotAllowedError: Permission denied',
    );
    expect(qrCodeParseError(new Error('no finder pattern'))).toBe('QR code parse error: no finder pattern');
    expect(qrCodeParseError('bad symbol')).toBe('QR code parse error: bad symbol');
    expect(describeError({ code: 7 })).toBe('{"code":7}');
    expect(describeError(undefined)).toBe('undefined');
  });

  it('builds the two camera-missing dialogs with the App Settings button', () => {
    expect(cameraMissingDialog('notConfigured')).toEqual({
      title: 'Camera missing',
      message: 'No camera has been configured for this device',
      detail: expect.stringMatching(/re-configure .* application settings/),
      button: { label: 'App Settings', route: 'appSettings' },
    });
    const inaccessible = cameraMissingDialog('inaccessible');
    expect(inaccessible.title).toBe('Camera missing');
    expect(inaccessible.message).toBe('The camera configured for barcode scanning cannot be accessed.');
    for (const word of ['connected', 'powered', 'permission', 'browser settings']) expect(inaccessible.detail).toContain(word);
  });

  it('checks the secure context before streaming support', () => {
    const getUserMedia = () => undefined;
    expect(cameraPreflight({ isSecureContext: false, mediaDevices: { getUserMedia } })).toBe(CAMERA_SECURE_CONTEXT_ONLY);
    expect(cameraPreflight({ isSecureContext: true })).toBe(CAMERA_STREAMING_NOT_SUPPORTED);
    expect(cameraPreflight({ isSecureContext: true, mediaDevices: { getUserMedia } })).toBeNull();
  });

  it('tells an inaccessible camera from other getUserMedia failures', () => {
    expect(isCameraInaccessibleError(new DOMException('busy', 'NotReadableError'))).toBe(true);
    expect(isCameraInaccessibleError(new DOMException('gone', 'NotFoundError'))).toBe(true);
    expect(isCameraInaccessibleError(new TypeError('bad constraints'))).toBe(false);
    expect(isCameraInaccessibleError('NotAllowedError')).toBe(false);
  });
});
