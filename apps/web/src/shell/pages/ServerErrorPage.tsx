import { ErrorPage } from './ErrorResult';

export default function ServerErrorPage() {
  return <ErrorPage status="500" />;
}
