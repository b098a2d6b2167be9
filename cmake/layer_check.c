/* The program each layer check of CMakeLists.txt links (gisa_layer_check_NAME:
 * this empty main, the objects of src/NAME and those of the layers below
 * it, nothing else): a call from src/NAME to a higher or a sibling layer is
 * an undefined symbol there, and fails the build. tests/cli/layering.sh
 * links it the same way with an injected upward call. */
int main(void)
{
    return 0;
}
