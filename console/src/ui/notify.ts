import { notifications } from '@mantine/notifications';
import { messageOf } from '../api/http.ts';

export const notifySaved = (message: string) => notifications.show({ color: 'green', message });
export const notifyFailed = (error: unknown, title = 'Not saved') =>
  notifications.show({ color: 'red', title, message: messageOf(error) });
