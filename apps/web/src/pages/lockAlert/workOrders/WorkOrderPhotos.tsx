/**
 * A work order's photos: thumbnails that open a preview, one-click
 * upload with progress (JPEG, PNG, WebP; the server checks the bytes and the limits), delete after a
 * confirmation. The images come through the authenticated file endpoint as object URLs (an <img> cannot
 * send the token header), released when the component leaves.
 */
import { WORK_ORDER_PHOTO_MAX_BYTES, WORK_ORDER_PHOTO_TYPES, WORK_ORDER_PHOTOS_MAX, type WorkOrderPhoto, workOrderEndpoints as api } from '@iot/contract';
import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Flex, Image, Popconfirm, Progress, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { fetchFile } from '../../../api/download';
import { uploadFile } from '../../../api/upload';
import { useApiMutation } from '../../../api/useApiMutation';
import { useApiQuery } from '../../../api/useApiQuery';
import { useMessage } from '../../../components/appMessage';

const THUMB = 88;

/** One photo as an object URL while shown. */
function Thumbnail({ photo, onDelete }: { photo: WorkOrderPhoto; onDelete(): void }) {
  const { t } = useTranslation('workOrder');
  const image = useQuery({
    queryKey: [api.photo.path, photo.id],
    queryFn: async () => {
      const response = await fetchFile(api.photo, { id: photo.id });
      return response ? URL.createObjectURL(await response.blob()) : undefined;
    },
    staleTime: Number.POSITIVE_INFINITY, gcTime: 0,
  });
  useEffect(() => () => { if (image.data) URL.revokeObjectURL(image.data); }, [image.data]);
  return (
    <div className="work-order-photo" style={{ position: 'relative', width: THUMB }}>
      <Image width={THUMB} height={THUMB} style={{ objectFit: 'cover', borderRadius: 4 }} src={image.data} alt={photo.fileName}
        title={`${photo.fileName} · ${photo.width}×${photo.height} · ${photo.createdBy}`} />
      <Popconfirm title={t('deletePhotoConfirm')} okText={t('ok')} cancelText={t('close')} onConfirm={onDelete}>
        <Button size="small" danger type="text" icon={<DeleteOutlined />} aria-label={t('delete')}
          style={{ position: 'absolute', top: 2, right: 2, background: 'rgba(255,255,255,0.85)' }} />
      </Popconfirm>
    </div>
  );
}

/** The photos of order `workOrderId`, kept fresh from its detail. */
export function WorkOrderPhotos({ workOrderId }: { workOrderId: number }) {
  const { t } = useTranslation('workOrder');
  const message = useMessage();
  const client = useQueryClient();
  const detail = useApiQuery(api.detail, { id: workOrderId });
  const [percent, setPercent] = useState<number>();
  const refresh = () => Promise.all([api.detail, api.list].map((e) => client.invalidateQueries({ queryKey: [e.path] })));
  const remove = useApiMutation({ mutationFn: (id: number) => call(api.deletePhoto, { body: { id } }), success: t('photoDeleted'), invalidate: [api.detail, api.list] });
  const photos = detail.data?.photos ?? [];
  const add = async (file: File) => {
    setPercent(0);
    try {
      await uploadFile(api.addPhoto, file, file.name, setPercent, { workOrderId: String(workOrderId) });
      message.success(t('photoAdded'));
    } catch {
      // the upload's error toast has said why
    } finally {
      setPercent(undefined);
      await refresh();
    }
  };
  return (
    <div className="work-order-photos">
      <Typography.Text strong>{t('photos')} ({photos.length}/{WORK_ORDER_PHOTOS_MAX})</Typography.Text>
      <Image.PreviewGroup>
        <Flex wrap gap={8} style={{ margin: '8px 0' }}>
          {photos.map((photo) => <Thumbnail key={photo.id} photo={photo} onDelete={() => void remove.run(photo.id)} />)}
          {photos.length === 0 && <Typography.Text type="secondary">{t('noPhotos')}</Typography.Text>}
        </Flex>
      </Image.PreviewGroup>
      <Flex align="center" gap={12}>
        <Upload accept={WORK_ORDER_PHOTO_TYPES.join(',')} showUploadList={false} beforeUpload={(file) => { void add(file); return false; }}
          disabled={percent !== undefined || photos.length >= WORK_ORDER_PHOTOS_MAX}>
          <Button icon={<UploadOutlined />} disabled={percent !== undefined || photos.length >= WORK_ORDER_PHOTOS_MAX}>{t('addPhoto')}</Button>
        </Upload>
        {percent !== undefined ? <Progress percent={percent} size="small" style={{ width: 160 }} />
          : <Typography.Text type="secondary">{t('photoHint', { size: `${WORK_ORDER_PHOTO_MAX_BYTES / 1024 / 1024} MiB`, max: WORK_ORDER_PHOTOS_MAX })}</Typography.Text>}
      </Flex>
    </div>
  );
}
