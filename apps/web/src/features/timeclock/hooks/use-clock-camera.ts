import { useEffect, useRef, useState } from 'react';
import { captureStill } from '../../../components/scanning/photo-capture.tsx';
import { useMachineStore } from '../../../lib/machine-store.ts';
import { cameraConstraints, stopStream } from '../../../lib/scanning/camera.ts';

const CLOCK_FRAME = { width: 640, height: 480 };

/**
 * The time-clock camera of the machine settings, kept running while the clock shows, so a still can
 * be taken the moment a badge is read. Without a configured camera, punches carry no photo.
 */
export function useClockCamera() {
  const cam = useMachineStore((s) => s.timeclockCam);
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<'off' | 'starting' | 'on' | 'failed'>(cam ? 'starting' : 'off');
  useEffect(() => {
    if (!cam?.deviceId || !navigator.mediaDevices?.getUserMedia) return setState('off');
    let stream: MediaStream | null = null;
    let cancelled = false;
    setState('starting');
    navigator.mediaDevices
      .getUserMedia(cameraConstraints(cam, CLOCK_FRAME))
      .then((s) => {
        if (cancelled) return stopStream(s);
        stream = s;
        if (video.current) video.current.srcObject = s;
        setState('on');
      })
      .catch(() => !cancelled && setState('failed'));
    return () => {
      cancelled = true;
      stopStream(stream);
    };
  }, [cam]);
  /** A JPEG data URL of the current frame, or null without a running camera. */
  const still = (): string | null => (state === 'on' && video.current ? captureStill(video.current) : null);
  return { video, state, still, configured: !!cam };
}
