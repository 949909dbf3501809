import { PlaygroundPage } from "../../components/playground/PlaygroundPage.tsx";

export default PlaygroundPage;
