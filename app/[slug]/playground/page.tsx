import { Playground } from "../../../components/playground/Playground.tsx";

/** The client component reads its API base from the URL, so the slug param is not needed here. */
export default function AgentPlaygroundPage() {
  return <Playground />;
}
