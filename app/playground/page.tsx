import { Playground } from "../../components/playground/Playground.tsx";

export default function PlaygroundPage() {
  return <Playground />;
}
