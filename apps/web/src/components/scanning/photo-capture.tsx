import { useEffect, useRef, useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconCamera } from '@tabler/icons-react';
import { MEDIA_MAX_DATA_URL_CHARS, type CallArgs } from '@floorhand/contract/api';
import { dialogs } from '../dialogs/dialog-store.ts';
import { call } from '../../lib/api.ts';
import { useMachineStore, type CameraChoice } from '../../lib/machine-store.ts';
import { cameraConstraints, fitWithin, stopStream } from '../../lib/scanning/camera.ts';
import { isCameraInaccessibleError, userMediaError } from '../../lib/scanning/scanner-messages.ts';
import { tText } from '../../lib/translate-text.ts';

/** Asked of the camera; the capture is downscaled to PHOTO_MAX_SIDE anyway. */
const PHOTO_FRAME = { width: 1920, height: 1080 };
// Lower qualities are tried only if a busy picture would pass the upload cap.
const JPEG_QUALITIES = [0.85, 0.7, 0.5];

/** The still under the video as a JPEG data URL, longest side at most PHOTO_MAX_SIDE. */
export function captureStill(video: HTMLVideoElement): string | null {
  const { width, height } = fitWithin(video.videoWidth, video.videoHeight);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context || !video.videoWidth) return null;
  context.drawImage(video, 0, 0, width, height);
  for (const quality of JPEG_QUALITIES) {
    const dataUrl = canvas.toDataURL('image/jpeg', quality);
    if (dataUrl.length <= MEDIA_MAX_DATA_URL_CHARS) return dataUrl;
  }
  return null;
}

export type PhotoCaptureProps = {
  onCaptured: (mediaId: string) => void;
  /** Defaults to the photo camera of the machine settings. */
  cam?: CameraChoice | null;
  purpose?: CallArgs<'media/upload'>['purpose'];
  label?: string;
  testId?: string;
};

/** Takes a still with the configured photo camera, uploads it (media/upload) and hands back its media id. */
export function PhotoCapture({ onCaptured, cam, purpose = 'photo', label, testId = 'photo-capture' }: PhotoCaptureProps) {
  const { t } = useTranslation();
  const saved = useMachineStore((s) => s.photoCam);
  const camera = cam === undefined ? saved : cam;
  const [opened, setOpened] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  const [uploading, setUploading] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);
  const deviceId = opened ? camera?.deviceId : undefined;

  useEffect(() => {
    if (!deviceId) return;
    let cancelled = false;
    setProblem(null);
    setReady(false);
    navigator.mediaDevices
      .getUserMedia(cameraConstraints({ deviceId, kind: 'videoinput', label: '' }, PHOTO_FRAME))
      .then((started) => {
        if (cancelled) return stopStream(started);
        stream.current = started;
        if (video.current) video.current.srcObject = started;
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        if (!isCameraInaccessibleError(error)) return setProblem(userMediaError(error));
        setOpened(false);
        void dialogs.cameraMissing('inaccessible');
      });
    return () => {
      cancelled = true;
      stopStream(stream.current);
      stream.current = null;
    };
  }, [deviceId]);

  const open = () => (camera ? setOpened(true) : void dialogs.cameraMissing('notConfigured'));
  const capture = async () => {
    const dataUrl = video.current && captureStill(video.current);
    if (!dataUrl) return setProblem(t('The picture could not be taken; try again.'));
    setUploading(true);
    try {
      const { mediaId } = await call('media/upload', { dataUrl, purpose });
      if (mediaId) {
        setOpened(false);
        onCaptured(mediaId);
      }
    } catch {
      // The request helper has shown the error; the worker may try again.
    } finally {
      setUploading(false);
    }
  };

  return (
    <>
      <Button size="md" variant="default" leftSection={<IconCamera size={20} />} onClick={open} data-testid={testId}>
        {label ?? t('Take photo')}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('Take photo')} size="lg" centered>
        <Stack>
          <video
            ref={video}
            muted
            playsInline
            autoPlay
            onLoadedData={() => setReady(true)}
            style={{ width: '100%', maxHeight: '60vh', background: '#000', borderRadius: 4, objectFit: 'contain' }}
            data-testid="photo-video"
          />
          {problem && <Text c="red">{tText(problem)}</Text>}
          <Group justify="flex-end">
            <Button size="md" variant="default" onClick={() => setOpened(false)}>
              {t('Cancel')}
            </Button>
            <Button
              size="md"
              leftSection={<IconCamera size={20} />}
              onClick={() => void capture()}
              disabled={!ready}
              loading={uploading}
              data-testid="photo-shoot"
            >
              {t('Capture')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
