import { ErrorPage } from './ErrorResult';

export default function NotFoundPage() {
  return <ErrorPage status="404" />;
}
