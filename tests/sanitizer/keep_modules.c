/* Preloaded into the tests that load a Vulkan driver, in sanitizer builds
   only (tests/CMakeLists.txt): shared objects are never unloaded, so what a
   driver keeps until exit stays reachable from its globals, and a leak that
   LeakSanitizer does report still has the module's name in its stack.
   Without it lavapipe and LLVM, unloaded by the Vulkan loader at
   vkDestroyInstance, appear to leak from unknown modules that no
   suppression can name, and leak checking had to be off for every GPU and
   CLI test. */
int dlclose(void* handle)
{
    (void)handle;
    return 0;
}
