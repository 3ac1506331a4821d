// Export module
