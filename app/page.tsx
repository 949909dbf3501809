import { AgentsIndex } from "../components/agents-index/AgentsIndex.tsx";

export default function HomePage() {
  return <AgentsIndex />;
}
