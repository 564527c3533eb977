import { ErrorPage } from './ErrorResult';

export default function ForbiddenPage() {
  return <ErrorPage status="403" />;
}
